// Client documents on /graphql: a query seen again runs as code compiled by graphql-jit
// (src/graphql/jit-executor.ts) and answers exactly what graphql-js answered the first time;
// mutations, introspection and the federation router's fields stay with graphql-js; variables are
// checked with graphql-js's messages; at most a bounded number of documents are kept compiled.
// Every answer is Cache-Control: no-store.
import { GraphQLInt, GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLSchema, GraphQLString } from 'graphql';
import { gatewayRequest, useTestApp, OLIVIA } from '../kit';
import { HOME_SCREEN_QUERY } from '../../src/graphql/examples';
import { jitExecutor } from '../../src/graphql/jit-executor';

const t = useTestApp();

describe('on /graphql', () => {
  it('the home-screen query answers the same body the first, second and third time (interpreted, then compiled), no-store', async () => {
    const bodies = [];
    for (let i = 0; i < 3; i++) {
      const res = await t.as(OLIVIA).gql(HOME_SCREEN_QUERY);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      bodies.push(res.body);
    }
    expect(bodies[0].errors).toBeUndefined();
    expect(bodies[1]).toEqual(bodies[0]);
    expect(bodies[2]).toEqual(bodies[0]);
  });

  it('an error of a compiled query reads as the interpreted one did', async () => {
    const query = '{ smartLibrary(smartLibId: 999999) { smartLibName } }';
    const first = await t.as(OLIVIA).gql(query);
    const second = await t.as(OLIVIA).gql(query);
    expect(first.body.errors?.[0].extensions.errorCode).toMatch(/^WS/);
    expect(second.body).toEqual(first.body);
    expect(second.status).toBe(first.status);
  });
});

// A small schema of its own, to see which path each request takes.
const Item = new GraphQLObjectType({
  name: 'Item',
  fields: { id: { type: new GraphQLNonNull(GraphQLInt) }, name: { type: GraphQLString } },
});
const schema = new GraphQLSchema({
  query: new GraphQLObjectType({
    name: 'Query',
    fields: {
      items: {
        type: new GraphQLList(Item),
        args: { n: { type: new GraphQLNonNull(GraphQLInt) } },
        resolve: (_root, { n }: { n: number }) => Array.from({ length: n }, (_, i) => ({ id: i + 1, name: `item ${i + 1}` })),
      },
      _service: { type: GraphQLString, resolve: () => 'sdl' },
    },
  }),
  mutation: new GraphQLObjectType({ name: 'Mutation', fields: { touch: { type: GraphQLInt, resolve: () => 1 } } }),
});

describe('jitExecutor', () => {
  it('compiles a query at its second use, and answers the same', async () => {
    const jit = jitExecutor(schema);
    const q = gatewayRequest('query($n: Int!) { items(n: $n) { id name } }', { n: 3 });
    const first = await jit.executor(q);
    expect(jit.compiled()).toBe(0);
    const second = await jit.executor(q);
    expect(jit.compiled()).toBe(1);
    expect(second).toEqual(first);
    expect(first).toEqual({
      data: {
        items: [
          { id: 1, name: 'item 1' },
          { id: 2, name: 'item 2' },
          { id: 3, name: 'item 3' },
        ],
      },
    });
  });

  it('checks variables with graphql-js, whose messages name the variable', async () => {
    const jit = jitExecutor(schema);
    const q = gatewayRequest('query($n: Int!) { items(n: $n) { id } }', { n: 'x' });
    await jit.executor(q);
    const compiled = await jit.executor(q);
    expect(jit.compiled()).toBe(1);
    expect(compiled.errors?.map((e) => e.message)).toEqual([
      'Variable "$n" got invalid value "x"; Int cannot represent non-integer value: "x"',
    ]);
  });

  it('never compiles mutations, introspection or the federation fields', async () => {
    const jit = jitExecutor(schema);
    for (const source of ['mutation { touch }', '{ __schema { queryType { name } } }', '{ _service }']) {
      const q = gatewayRequest(source);
      const answers = [await jit.executor(q), await jit.executor(q), await jit.executor(q)];
      expect(answers[2]).toEqual(answers[0]);
      expect(answers[0].errors).toBeUndefined();
    }
    expect(jit.compiled()).toBe(0);
  });

  it('keeps at most its bound of compiled documents', async () => {
    const jit = jitExecutor(schema, 2);
    for (const n of [1, 2, 3]) {
      const q = gatewayRequest(`{ items(n: ${n}) { id } }`);
      await jit.executor(q);
      await jit.executor(q);
    }
    expect(jit.compiled()).toBe(2);
  });
});
