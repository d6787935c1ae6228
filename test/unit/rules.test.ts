// The field rules of src/graphql/rules.ts on their own, without a schema, an app or a database:
// each rule kind refuses with its identifier and the field's name, lengths count code points as
// PostgreSQL does, and ruleText states what the validator enforces.
import 'reflect-metadata';
import fc from 'fast-check';
import { Field, InputType } from 'type-graphql';
import { checkRule, Rule, rulesOf, ruleText, validateArgument, validateInput } from '../../src/graphql/rules';
import { charLength } from '../../src/core/text';
import { serviceErrorOf } from '../kit/errors';

class Address {
  @Rule({ maxLength: 5 })
  city?: string | null;
}

class Sample {
  @Rule({ required: true, maxLength: 5 })
  name?: string | null;

  @Rule({ oneOf: ['W', 'P', 'O'] })
  typeCode?: string;

  @Rule({ oneOf: ['Y', 'N'], anyCase: true, format: 'Y or N' })
  flag?: string;

  @Rule({ pattern: /^[A-Z]{2}$/, format: 'a two-letter code' })
  country?: string;

  @Rule({ pattern: /^\d+$/ })
  digits?: string;

  @Rule({ min: 1, max: 10 })
  count?: number;

  @Rule({ min: 1 })
  id?: number;

  @Rule({ max: 3 })
  small?: number;

  @Rule({ maxItems: 2, maxLength: 3 })
  tags?: string[];

  @Rule({ trim: true, maxLength: 3 })
  code?: string;

  @Rule({ oneOf: ['PDF', 'URL'], code: 'WSUnsupportedTypeException' })
  kind?: string;

  @Rule({ maxLength: 3, field: 'emailParams.key' })
  key?: string;

  @Rule({ trim: true, oneOf: ['Y', 'N'] })
  answer?: string;

  @Rule({ min: 1, max: 99 })
  ids?: number[];

  address?: Address;
  addresses?: Address[];
}

/** A valid sample with `fields` changed. */
const sample = (fields: Partial<Sample> = {}) => Object.assign(new Sample(), { name: 'Ann' }, fields);
const refusal = (fields: Partial<Sample>) => serviceErrorOf(() => validateInput(sample(fields)));
const error = (code: string, field: string, message: string) => ({ code, field, message });

describe('validateInput: each rule kind names the field with the specification identifier', () => {
  it('when every field keeps its rule, then nothing is thrown', () => {
    expect(() =>
      validateInput(
        sample({
          typeCode: 'W',
          flag: 'y',
          country: 'AU',
          digits: '42',
          count: 10,
          id: 1,
          small: 3,
          tags: ['a', 'bcd'],
          code: ' abc ',
          kind: 'PDF',
          key: 'k',
          address: Object.assign(new Address(), { city: 'Perth' }),
        }),
      ),
    ).not.toThrow();
  });

  it.each([
    ['absent', undefined],
    ['null', null],
    ['empty', ''],
    ['blank', '   '],
  ])('required: when the value is %s, then WSInvalidParameterException "is required"', (_what, name) => {
    expect(refusal({ name })).toEqual(error('WSInvalidParameterException', 'name', 'name is required.'));
  });

  it('maxLength: one character over is WSFieldLengthException; at the bound it passes', () => {
    expect(refusal({ name: 'abcdef' })).toEqual(error('WSFieldLengthException', 'name', 'name must be at most 5 characters.'));
    expect(() => validateInput(sample({ name: 'abcde' }))).not.toThrow();
  });

  it('maxLength counts code points: five emoji fit in 5 characters (ten UTF-16 units), six do not', () => {
    expect(() => validateInput(sample({ name: '\u{1F600}'.repeat(5) }))).not.toThrow();
    expect(refusal({ name: '\u{1F600}'.repeat(6) })).toMatchObject({ code: 'WSFieldLengthException', field: 'name' });
  });

  it('oneOf: a code not listed is WSInvalidParameterException listing the codes; case matters without anyCase', () => {
    expect(refusal({ typeCode: 'X' })).toEqual(error('WSInvalidParameterException', 'typeCode', 'typeCode must be one of W, P, O.'));
    expect(refusal({ typeCode: 'w' })).toMatchObject({ code: 'WSInvalidParameterException', field: 'typeCode' });
  });

  it("oneOf with anyCase: any case and surrounding blanks pass; another word is refused in the rule's own words", () => {
    for (const flag of ['Y', 'y', 'n', ' N ']) expect(() => validateInput(sample({ flag }))).not.toThrow();
    expect(refusal({ flag: 'yes' })).toEqual(error('WSInvalidParameterException', 'flag', 'flag must be Y or N.'));
  });

  it("oneOf with its own identifier: the rule's code is thrown", () => {
    expect(refusal({ kind: 'EXE' })).toEqual(error('WSUnsupportedTypeException', 'kind', 'kind must be one of PDF, URL.'));
  });

  it('pattern: text that does not match is refused with the format; empty text is no value and passes', () => {
    expect(refusal({ country: 'aus' })).toEqual(error('WSInvalidParameterException', 'country', 'country must be a two-letter code.'));
    expect(refusal({ digits: '4a' })).toEqual(error('WSInvalidParameterException', 'digits', 'digits must be of the form ^\\d+$.'));
    expect(() => validateInput(sample({ country: '' }))).not.toThrow();
  });

  it.each([
    [{ count: 0 }, 'count', 'count must be from 1 to 10.'],
    [{ count: 11 }, 'count', 'count must be from 1 to 10.'],
    [{ id: 0 }, 'id', 'id must be at least 1.'],
    [{ id: -5 }, 'id', 'id must be at least 1.'],
    [{ small: 4 }, 'small', 'small must be at most 3.'],
  ])('min/max: %p is WSInvalidParameterException naming %s', (fields, field, message) => {
    expect(refusal(fields)).toEqual({ code: 'WSInvalidParameterException', field, message });
  });

  it('maxItems: one item too many is WSLimitExceededException; each text item keeps the length rule', () => {
    expect(refusal({ tags: ['a', 'b', 'c'] })).toEqual(error('WSLimitExceededException', 'tags', 'tags holds at most 2 items.'));
    expect(refusal({ tags: ['a', 'abcd'] })).toEqual(error('WSFieldLengthException', 'tags', 'tags must be at most 3 characters.'));
  });

  it('trim: text is measured without its surrounding blanks, and blank text is no value', () => {
    expect(() => validateInput(sample({ code: '   abc   ' }))).not.toThrow();
    expect(() => validateInput(sample({ code: '    ' }))).not.toThrow();
    expect(refusal({ code: ' abcd ' })).toMatchObject({ code: 'WSFieldLengthException', field: 'code' });
  });

  it('trim with a code list: blank text is no value and passes; without trim, blank text is a code and refused', () => {
    expect(() => validateInput(sample({ answer: '   ' }))).not.toThrow();
    expect(refusal({ answer: ' x ' })).toEqual(error('WSInvalidParameterException', 'answer', 'answer must be one of Y, N.'));
    expect(refusal({ typeCode: '  ' })).toEqual(error('WSInvalidParameterException', 'typeCode', 'typeCode must be one of W, P, O.'));
  });

  it('a list of numbers: each number keeps the range', () => {
    expect(() => validateInput(sample({ ids: [1, 99] }))).not.toThrow();
    expect(refusal({ ids: [5, 0] })).toEqual(error('WSInvalidParameterException', 'ids', 'ids must be from 1 to 99.'));
    expect(refusal({ ids: [100] })).toEqual(error('WSInvalidParameterException', 'ids', 'ids must be from 1 to 99.'));
  });

  it("field: errors give the declared name, not the property's", () => {
    expect(refusal({ key: 'long' })).toEqual(
      error('WSFieldLengthException', 'emailParams.key', 'emailParams.key must be at most 3 characters.'),
    );
  });

  it('input objects inside the input, and in lists, are validated with their own rules', () => {
    expect(refusal({ address: Object.assign(new Address(), { city: 'Sydney' }) })).toMatchObject({
      code: 'WSFieldLengthException',
      field: 'city',
    });
    const ok = Object.assign(new Address(), { city: 'Perth' });
    const long = Object.assign(new Address(), { city: 'Melbourne' });
    expect(refusal({ addresses: [ok, long] })).toMatchObject({ code: 'WSFieldLengthException', field: 'city' });
  });

  it('a plain object (not an input class) carries no rules', () => {
    expect(() => validateInput({ name: 'x'.repeat(100) })).not.toThrow();
  });

  it('an argument that is absent, null, a scalar or an object without a prototype (as graphql-js builds inputs) carries no rules', () => {
    for (const value of [undefined, null, 'x'.repeat(100), 7, Object.assign(Object.create(null), { name: 'x'.repeat(100) })])
      expect(() => validateArgument(value)).not.toThrow();
  });

  it('input objects are checked 16 levels deep; an input that refers to itself is walked no deeper, and ends', () => {
    /** `levels` Sample objects, each in the `address` field of the one above; the innermost has a name too long. */
    const nested = (levels: number) => {
      let inner: Sample = sample({ name: 'abcdef' });
      for (let i = 1; i < levels; i++) inner = sample({ address: inner as unknown as Address });
      return inner;
    };
    // The innermost object is 16 levels below the argument, through input objects or through a list.
    expect(serviceErrorOf(() => validateInput(nested(17)))).toMatchObject({ code: 'WSFieldLengthException', field: 'name' });
    expect(serviceErrorOf(() => validateInput([nested(16)]))).toMatchObject({ code: 'WSFieldLengthException', field: 'name' });
    const cyclic = sample();
    cyclic.address = cyclic as unknown as Address;
    const list: unknown[] = [];
    list.push(list, cyclic);
    expect(() => validateInput(cyclic)).not.toThrow();
    expect(() => validateInput(list)).not.toThrow();
  });
});

describe('charLength', () => {
  it('counts code points as PostgreSQL does: an astral character is one, a lone surrogate is one', () => {
    expect(charLength('')).toBe(0);
    expect(charLength('abc')).toBe(3);
    expect(charLength('\u{1F3E0}')).toBe(1);
    expect(charLength('a\u{1F3E0}b')).toBe(3);
    expect(charLength('\uD83D')).toBe(1);
    expect(charLength('\uDE00\uD83D')).toBe(2);
  });

  it('equals the number of code points of any string (property)', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (s) => charLength(s) === Array.from(s).length));
  });

  it('maxLength refuses exactly the texts longer than the bound, in code points (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-composite', maxLength: 12 }), fc.integer({ min: 0, max: 12 }), (text, max) => {
        const check = () => checkRule({ maxLength: max }, text, 'text');
        if (Array.from(text).length > max) expect(serviceErrorOf(check)).toMatchObject({ code: 'WSFieldLengthException', field: 'text' });
        else expect(check).not.toThrow();
      }),
    );
  });
});

@InputType('RulesTestBaseInput')
class BaseInput {
  @Field(() => String, { nullable: true })
  @Rule({ maxLength: 3 })
  code?: string | null;
}

@InputType('RulesTestChildInput')
class ChildInput extends BaseInput {
  @Field(() => String, { nullable: true })
  @Rule({ maxLength: 9 })
  name?: string | null;
}

@InputType('RulesTestWiderInput')
class WiderInput extends BaseInput {
  @Field(() => String, { nullable: true })
  @Rule({ maxLength: 6 })
  declare code?: string | null;
}

describe('rulesOf: what the OpenAPI document and the REST forms read is what the validator applies', () => {
  it('when an input type extends another, then its rules are its own and those it inherits', () => {
    expect(Object.fromEntries(rulesOf('RulesTestChildInput') ?? [])).toEqual({ code: { maxLength: 3 }, name: { maxLength: 9 } });
    expect(Object.fromEntries(rulesOf('RulesTestBaseInput') ?? [])).toEqual({ code: { maxLength: 3 } });
    // The validator's view of the same class.
    expect(serviceErrorOf(() => validateInput(Object.assign(new ChildInput(), { code: 'abcd' })))).toMatchObject({
      code: 'WSFieldLengthException',
      field: 'code',
    });
  });

  it("when an input type declares again a field it inherits, then its own rule wins, and the base type's stays as it was", () => {
    expect(Object.fromEntries(rulesOf('RulesTestWiderInput') ?? [])).toEqual({ code: { maxLength: 6 } });
    expect(() => validateInput(Object.assign(new WiderInput(), { code: 'abcdef' }))).not.toThrow();
    expect(serviceErrorOf(() => validateInput(Object.assign(new WiderInput(), { code: 'abcdefg' })))).toEqual({
      code: 'WSFieldLengthException',
      field: 'code',
      message: 'code must be at most 6 characters.',
    });
    expect(serviceErrorOf(() => validateInput(Object.assign(new BaseInput(), { code: 'abcd' })))).toMatchObject({ field: 'code' });
  });
});

describe('ruleText: the schema states what is enforced', () => {
  it.each([
    [{ required: true, maxLength: 5 }, '(required; at most 5 characters.)'],
    [{ oneOf: ['Y', 'N'], anyCase: true }, '(one of Y, N (any case).)'],
    [{ min: 1 }, '(at least 1.)'],
    [{ max: 3 }, '(at most 3.)'],
    [{ min: 1, max: 10 }, '(1 to 10.)'],
    [{ maxItems: 20 }, '(at most 20 items.)'],
    [{ pattern: /x/ }, ''],
  ])('%p reads %p', (rule, text) => {
    expect(ruleText(rule)).toBe(text);
  });
});
