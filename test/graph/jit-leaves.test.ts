// The leaves of a compiled query (graphql-jit, patched by patches/graphql-jit+0.8.9.patch so that a
// leaf's error locations and response path are built only when an error is reported): every kind
// of failing leaf, in lists nested two deep and in a list of promises, answers what graphql-js answers, with the same
// messages, locations and paths; and the compiled code is the patched one.
import {
  GraphQLEnumType,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLSchema,
  GraphQLString,
  parse,
  type ExecutionResult,
} from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import { jitExecutor } from '../../src/graphql/jit-executor';
import { gatewayRequest } from '../kit';

const Odd = new GraphQLScalarType({
  name: 'Odd',
  serialize(value) {
    if (value === 'throw') throw new TypeError('Odd cannot represent "throw"');
    if (value === 'undef') return undefined;
    return `odd:${String(value)}`;
  },
});
const Leaf = new GraphQLObjectType({
  name: 'Leaf',
  fields: {
    name: { type: new GraphQLNonNull(GraphQLString) },
    note: { type: GraphQLString },
    count: { type: GraphQLInt },
    color: { type: new GraphQLEnumType({ name: 'Color', values: { RED: { value: 'red' } } }) },
    odd: { type: Odd },
  },
});
const Row = new GraphQLObjectType({
  name: 'Row',
  fields: { id: { type: new GraphQLNonNull(GraphQLInt) }, leaves: { type: new GraphQLList(new GraphQLNonNull(Leaf)) } },
});

const fine = { name: 'a', note: 'n', count: 1, color: 'red', odd: 'x' };
const rows = [
  {
    id: 1,
    leaves: [
      fine,
      { ...fine, name: 5, count: 2 ** 40 },
      { ...fine, count: 'abc', color: 'purple' },
      { ...fine, note: new Error('note failed'), odd: 'throw' },
      { ...fine, note: null, count: null, color: null, odd: null },
    ],
  },
  { id: 2, leaves: [fine, { ...fine, name: null }] },
  { id: 3, leaves: [{ ...fine, name: new Error('name failed') }] },
  { id: null, leaves: [] },
  { id: 5, leaves: null },
];
const schema = new GraphQLSchema({
  query: new GraphQLObjectType({
    name: 'Query',
    fields: {
      rows: { type: new GraphQLList(Row), resolve: () => rows },
      oddOne: { type: new GraphQLNonNull(Odd), resolve: () => 'undef' },
      count: { type: new GraphQLNonNull(GraphQLInt), resolve: () => null },
      later: {
        type: new GraphQLList(Leaf),
        resolve: () => [Promise.resolve(fine), Promise.reject(new Error('item failed')), fine, Promise.resolve({ ...fine, count: 'abc' })],
      },
    },
  }),
});

/** A request as Apollo hands it to the executor; the document must compile (no silent fallback to graphql-js). */
function requestOf(source: string) {
  expect(isCompiledQuery(compileQuery(schema, parse(source)))).toBe(true);
  return gatewayRequest(source);
}

/** The body as sent: errors as JSON has them, in path order (the two executors report in different orders). */
function wire(result: ExecutionResult) {
  const body = JSON.parse(JSON.stringify(result)) as { data: unknown; errors?: { path: unknown[] }[] };
  body.errors?.sort((a, b) => JSON.stringify(a.path).localeCompare(JSON.stringify(b.path)));
  return body;
}

/** The body of `source` run twice by one executor: interpreted by graphql-js, then compiled. */
async function bothWays(source: string) {
  const jit = jitExecutor(schema);
  const q = requestOf(source);
  const interpreted = wire(await jit.executor(q));
  const compiled = wire(await jit.executor(q));
  expect(jit.compiled()).toBe(1);
  return { interpreted, compiled };
}

describe('a compiled query, leaf by leaf', () => {
  it('answers every failing leaf in nested lists as graphql-js does', async () => {
    const { interpreted, compiled } = await bothWays('{ rows { id leaves { name note count color odd } } }');
    expect(compiled).toEqual(interpreted);
    expect(compiled).toEqual({
      data: {
        rows: [
          {
            id: 1,
            leaves: [
              { name: 'a', note: 'n', count: 1, color: 'RED', odd: 'odd:x' },
              { name: '5', note: 'n', count: null, color: 'RED', odd: 'odd:x' },
              { name: 'a', note: 'n', count: null, color: null, odd: 'odd:x' },
              { name: 'a', note: null, count: 1, color: 'RED', odd: null },
              { name: 'a', note: null, count: null, color: null, odd: null },
            ],
          },
          { id: 2, leaves: null },
          { id: 3, leaves: null },
          null,
          { id: 5, leaves: null },
        ],
      },
      errors: [
        {
          message: 'Int cannot represent non 32-bit signed integer value: 1099511627776',
          locations: [{ line: 1, column: 32 }],
          path: ['rows', 0, 'leaves', 1, 'count'],
        },
        {
          message: 'Enum "Color" cannot represent value: "purple"',
          locations: [{ line: 1, column: 38 }],
          path: ['rows', 0, 'leaves', 2, 'color'],
        },
        {
          message: 'Int cannot represent non-integer value: "abc"',
          locations: [{ line: 1, column: 32 }],
          path: ['rows', 0, 'leaves', 2, 'count'],
        },
        { message: 'note failed', locations: [{ line: 1, column: 27 }], path: ['rows', 0, 'leaves', 3, 'note'] },
        { message: 'Odd cannot represent "throw"', locations: [{ line: 1, column: 44 }], path: ['rows', 0, 'leaves', 3, 'odd'] },
        {
          message: 'Cannot return null for non-nullable field Leaf.name.',
          locations: [{ line: 1, column: 22 }],
          path: ['rows', 1, 'leaves', 1, 'name'],
        },
        { message: 'name failed', locations: [{ line: 1, column: 22 }], path: ['rows', 2, 'leaves', 0, 'name'] },
        { message: 'Cannot return null for non-nullable field Row.id.', locations: [{ line: 1, column: 10 }], path: ['rows', 3, 'id'] },
      ],
    });
  });

  it('a non-null leaf at the root: null, and a scalar whose serialize answers undefined', async () => {
    const nullCount = await bothWays('{ count }');
    expect(nullCount.compiled).toEqual(nullCount.interpreted);
    expect(nullCount.interpreted).toEqual({
      data: null,
      errors: [{ message: 'Cannot return null for non-nullable field Query.count.', locations: [{ line: 1, column: 3 }], path: ['count'] }],
    });
    // graphql-jit words a scalar's undefined in its own way (graphql-js names serialize's call).
    expect((await bothWays('{ oddOne }')).compiled).toEqual({
      data: null,
      errors: [{ message: 'Expected a value of type "Odd" but received: undef', locations: [{ line: 1, column: 3 }], path: ['oddOne'] }],
    });
  });

  it('a list whose items are promises, one of them rejected, as graphql-js', async () => {
    const { interpreted, compiled } = await bothWays('{ later { name count } }');
    expect(compiled).toEqual(interpreted);
    expect(interpreted).toEqual({
      data: { later: [{ name: 'a', count: 1 }, null, { name: 'a', count: 1 }, { name: 'a', count: null }] },
      errors: [
        { message: 'item failed', locations: [{ line: 1, column: 3 }], path: ['later', 1] },
        { message: 'Int cannot represent non-integer value: "abc"', locations: [{ line: 1, column: 16 }], path: ['later', 3, 'count'] },
      ],
    });
  });

  it('builds no error arguments for a leaf that is not in error (the patch is applied)', () => {
    const compiled = compileQuery(schema, parse('{ rows { id leaves { name note } } }'), undefined, { debug: true } as never);
    if (!isCompiledQuery(compiled)) throw new Error('not compiled');
    const code = (compiled as unknown as { __DO_NOT_USE_THIS_OR_YOU_WILL_BE_FIRED_compilation: string })
      .__DO_NOT_USE_THIS_OR_YOU_WILL_BE_FIRED_compilation;
    expect(code).not.toMatch(/checkNullableLeaf|checkNonNullLeaf/);
    expect(code).toMatch(/LeafError/);
  });
});
