// The pure part of the discovery rule's identifiers (src/modules/discovery/identifier-values.ts):
// the shape of the values a user supplies, and whether a value has its identifier's format.
// (The matching rule itself runs in SQL: test/discovery/matching.test.ts.)
import fc from 'fast-check';
import { checkIdentifierValues, matchesFormat } from '../../src/modules/discovery/identifier-values';
import type { IdentifierDefinition } from '../../src/modules/discovery/identifier.entity';
import { serviceErrorOf } from '../kit/errors';

/** An identifier value's bound (the column, as the membership identifier's), written down. */
const IDENTIFIER_VALUE_MAX = 100;

const definition = (formatRegex: string | null) => ({ formatRegex }) as IdentifierDefinition;

describe('checkIdentifierValues', () => {
  it('trims each value and keeps the order', () => {
    expect(
      checkIdentifierValues([
        { identifierId: 2, value: ' R1234 ' },
        { identifierId: 1, value: 'X' },
      ]),
    ).toEqual([
      { identifierId: 2, value: 'R1234' },
      { identifierId: 1, value: 'X' },
    ]);
  });

  it('an identifier given twice is refused naming identifierId', () => {
    expect(
      serviceErrorOf(() =>
        checkIdentifierValues([
          { identifierId: 1, value: 'a' },
          { identifierId: 1, value: 'b' },
        ]),
      ),
    ).toEqual({
      code: 'WSInvalidParameterException',
      field: 'identifierId',
      message: 'Identifier 1 is given twice.',
    });
  });

  it('an empty or blank value is refused naming value', () => {
    for (const value of ['', '   ']) {
      expect(serviceErrorOf(() => checkIdentifierValues([{ identifierId: 1, value }]))).toEqual({
        code: 'WSInvalidParameterException',
        field: 'value',
        message: 'An identifier value must not be empty.',
      });
    }
  });

  it("a value over the column's length, counted in characters after trimming, is WSFieldLengthException", () => {
    const emoji = '\u{1F3C5}';
    expect(checkIdentifierValues([{ identifierId: 1, value: ` ${emoji.repeat(IDENTIFIER_VALUE_MAX)} ` }])[0].value).toBe(
      emoji.repeat(IDENTIFIER_VALUE_MAX),
    );
    expect(serviceErrorOf(() => checkIdentifierValues([{ identifierId: 1, value: emoji.repeat(IDENTIFIER_VALUE_MAX + 1) }]))).toEqual({
      code: 'WSFieldLengthException',
      field: 'value',
      message: `value must be at most ${IDENTIFIER_VALUE_MAX} characters.`,
    });
  });

  it('more than ten values are refused naming identifiers', () => {
    const values = Array.from({ length: 11 }, (_, i) => ({ identifierId: i + 1, value: 'v' }));
    expect(serviceErrorOf(() => checkIdentifierValues(values))).toMatchObject({
      code: 'WSInvalidParameterException',
      field: 'identifiers',
    });
    expect(checkIdentifierValues(values.slice(0, 10))).toHaveLength(10);
  });

  it('any list of distinct identifiers with non-blank values of allowed length comes back trimmed (property)', () => {
    const item = fc.record({
      identifierId: fc.integer({ min: 1, max: 1000 }),
      value: fc.string({ minLength: 1, maxLength: IDENTIFIER_VALUE_MAX }).filter((v) => v.trim() !== ''),
    });
    fc.assert(
      fc.property(fc.uniqueArray(item, { maxLength: 10, selector: (v) => v.identifierId }), (values) => {
        expect(checkIdentifierValues(values)).toEqual(values.map(({ identifierId, value }) => ({ identifierId, value: value.trim() })));
      }),
    );
  });
});

describe('matchesFormat', () => {
  it("a value must match the identifier's pattern", () => {
    expect(matchesFormat(definition('^R[0-9]{4}$'), 'R1234')).toBe(true);
    expect(matchesFormat(definition('^R[0-9]{4}$'), 'R123')).toBe(false);
    expect(matchesFormat(definition('^[A-Z]{3}[0-9]{10}$'), 'MED0001234567')).toBe(true);
  });

  it('a definition without a pattern, or with one that does not compile, accepts any value', () => {
    fc.assert(fc.property(fc.string(), (value) => matchesFormat(definition(null), value) && matchesFormat(definition('(unclosed'), value)));
  });
});
