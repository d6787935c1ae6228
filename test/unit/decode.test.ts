// The legacy decoding of src/rest/decode.ts on its own, against hand-made GraphQL input types:
// a number is taken as its text, integer text as the integer, "true"/"false" in any case as the
// boolean, unknown properties are ignored; anything else is the operation's invalid identifier
// naming the field.
import fc from 'fast-check';
import {
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLInputObjectType,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLString,
  type GraphQLInputType,
} from 'graphql';
import { decodeParam, decodeValue, type DecodeOptions } from '../../src/rest/decode';
import { serviceErrorOf } from '../kit/errors';

const OPTIONS: DecodeOptions = { invalid: 'WSInvalidParameterException' };
const decode = (type: GraphQLInputType, value: unknown, path = 'value', options = OPTIONS) => decodeValue(type, value, path, options);
const invalid = (field: string) => ({ code: 'WSInvalidParameterException', field, message: `Invalid value for ${field}.` });

const Tag = new GraphQLInputObjectType({ name: 'Tag', fields: { smartTagName: { type: new GraphQLNonNull(GraphQLString) } } });
const Entry = new GraphQLInputObjectType({
  name: 'Entry',
  fields: {
    id: { type: new GraphQLNonNull(GraphQLInt) },
    name: { type: GraphQLString },
    open: { type: GraphQLBoolean },
    weight: { type: GraphQLFloat },
    tags: { type: new GraphQLList(Tag) },
    version: { type: new GraphQLNonNull(GraphQLInt), defaultValue: 1 },
  },
});

describe('text fields', () => {
  it('when a number comes for text, then its decimal text is used; text stays as sent', () => {
    expect(decode(GraphQLString, 2037)).toBe('2037');
    expect(decode(GraphQLString, 1.5)).toBe('1.5');
    expect(decode(GraphQLString, ' as sent ')).toBe(' as sent ');
  });

  it.each([
    ['a boolean', true],
    ['an object', { name: 'Sydney' }],
    ['a list', ['Glebe']],
    ['an infinite number', Infinity],
  ])('when %s comes for text, then the field is named', (_what, value) => {
    expect(serviceErrorOf(() => decode(GraphQLString, value, 'city'))).toEqual(invalid('city'));
  });

  it('any finite number is taken as String(number) (property)', () => {
    fc.assert(fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => decode(GraphQLString, n) === String(n)));
  });
});

describe('integer fields', () => {
  it('when integer text comes (blanks and sign allowed), then it is the integer', () => {
    expect(decode(GraphQLInt, '42')).toBe(42);
    expect(decode(GraphQLInt, ' -7 ')).toBe(-7);
    expect(decode(GraphQLInt, '+3')).toBe(3);
    expect(decode(GraphQLInt, 2_147_483_647)).toBe(2_147_483_647);
  });

  it.each([
    ['fractional text', '1.5'],
    ['a fraction', 1.5],
    ['other text', 'company 1001'],
    ['an integer beyond 32 bits', 2 ** 31],
    ['integer text beyond 32 bits', '2147483648'],
    ['a boolean', true],
    ['empty text', ''],
  ])('when %s comes for an integer, then the field is named', (_what, value) => {
    expect(serviceErrorOf(() => decode(GraphQLInt, value, 'cId'))).toEqual(invalid('cId'));
  });

  it('the text of any 32-bit integer decodes to it (property)', () => {
    fc.assert(fc.property(fc.integer({ min: -2_147_483_647, max: 2_147_483_647 }), (n) => decode(GraphQLInt, String(n)) === n));
  });
});

describe('boolean fields', () => {
  it.each([
    ['true', true],
    ['TRUE', true],
    [' True ', true],
    ['false', false],
    ['FALSE', false],
    [true, true],
    [false, false],
  ])('when %p comes, then %p', (value, expected) => {
    expect(decode(GraphQLBoolean, value)).toBe(expected);
  });

  it.each([['yes'], [1], [0], ['1'], [null]])('when %p comes for a required boolean, then the field is named', (value) => {
    expect(serviceErrorOf(() => decode(new GraphQLNonNull(GraphQLBoolean), value, 'uEnableLocation'))).toEqual(invalid('uEnableLocation'));
  });
});

describe('float fields', () => {
  it('numeric text is the number; other text names the field', () => {
    expect(decode(GraphQLFloat, '2.5e3')).toBe(2500);
    expect(decode(GraphQLFloat, '.5')).toBe(0.5);
    expect(serviceErrorOf(() => decode(GraphQLFloat, '2,5', 'weight'))).toEqual(invalid('weight'));
  });
});

describe('input objects and lists', () => {
  it('decodes each field by its type, ignores (and reports) unknown properties, leaves absent ones out', () => {
    const ignored: string[] = [];
    const out = decodeValue(Entry, { id: '7', name: 12, open: 'TRUE', shoeSize: 42, tags: [{ smartTagName: 5, colour: 'red' }] }, 'input', {
      ...OPTIONS,
      ignored: (p) => ignored.push(p),
    });
    expect(out).toEqual({ id: 7, name: '12', open: true, tags: [{ smartTagName: '5' }] });
    expect(ignored).toEqual(['input.shoeSize', 'input.tags[0].colour']);
  });

  it('a field deep in a list is named by its own name', () => {
    expect(serviceErrorOf(() => decode(Entry, { id: 1, tags: [{ smartTagName: 'a' }, { smartTagName: { x: 1 } }] }, 'input'))).toEqual(
      invalid('smartTagName'),
    );
  });

  it('a missing required field is named; one with a default may be left out', () => {
    expect(serviceErrorOf(() => decode(Entry, { name: 'x' }, ''))).toEqual(invalid('id'));
    expect(decode(Entry, { id: 1 }, '')).toEqual({ id: 1 });
    // Inside a body, the object that lacks it is named, as GraphQL's own coercion does.
    expect(serviceErrorOf(() => decode(new GraphQLList(Tag), [{}], 'tags'))).toEqual(invalid('tags'));
  });

  it('an object where a list is due, or text where an object is due, names the field', () => {
    expect(serviceErrorOf(() => decode(Entry, { id: 1, tags: { smartTagName: 'a' } }, ''))).toEqual(invalid('tags'));
    expect(serviceErrorOf(() => decode(Entry, 'not an object', 'input'))).toEqual(invalid('input'));
  });

  it("null for a nullable list item stays null; the operation's own identifier is used", () => {
    expect(decode(new GraphQLList(GraphQLInt), ['1', null])).toEqual([1, null]);
    expect(serviceErrorOf(() => decodeValue(GraphQLInt, 'x', 'cId', { invalid: 'InvalidParameterException' }))).toEqual({
      code: 'InvalidParameterException',
      field: 'cId',
      message: 'Invalid value for cId.',
    });
  });
});

describe('query and path values (decodeParam)', () => {
  it('text is decoded as a body value would be; a repeated key is a list; a list-typed key takes one value as a list', () => {
    expect(decodeParam(GraphQLInt, '1001', 'companyId', OPTIONS)).toBe(1001);
    expect(decodeParam(new GraphQLList(GraphQLInt), ['1', '2'], 'ids', OPTIONS)).toEqual([1, 2]);
    expect(decodeParam(new GraphQLList(GraphQLInt), '3', 'ids', OPTIONS)).toEqual([3]);
    expect(decodeParam(GraphQLInt, undefined, 'pageNum', OPTIONS)).toBeUndefined();
  });

  it('a repeated key for a single value, or a missing required one, names the parameter', () => {
    expect(serviceErrorOf(() => decodeParam(GraphQLInt, ['1', '2'], 'companyId', OPTIONS))).toEqual(invalid('companyId'));
    expect(serviceErrorOf(() => decodeParam(new GraphQLNonNull(GraphQLInt), undefined, 'version', OPTIONS))).toEqual(invalid('version'));
  });
});
