// The recommended entity carries the company's own fields (discovery.types.ts, carryCompanyFields):
// each as the Company type declares it, in its order, a code as its long name, without naming them.
import { GraphQLObjectType, type GraphQLField } from 'graphql';
import { createSchema } from '../../src/graphql/schema';
import { COMPANY_FIELDS_CARRIED } from '../../src/modules/discovery/discovery.types';
import { MODULES } from '../../src/modules';

/** A field as the schema shows it: its type, then its description. */
const shown = (f: GraphQLField<unknown, unknown>) => `${String(f.type)} ${f.description ?? ''}`;

describe('the recommended entity', () => {
  let company: GraphQLObjectType;
  let entity: GraphQLObjectType;
  beforeAll(async () => {
    const schema = await createSchema(MODULES);
    company = schema.getType('Company') as GraphQLObjectType;
    entity = schema.getType('RecommendedEntity') as GraphQLObjectType;
  });

  it('when the schema is built, then each company field it copies reads as the Company type declares it', () => {
    expect(COMPANY_FIELDS_CARRIED.length).toBeGreaterThan(0);
    for (const name of COMPANY_FIELDS_CARRIED) expect(shown(entity.getFields()[name])).toBe(shown(company.getFields()[name]));
  });

  it("when the schema is built, then its fields are its own, the company's in its order (codes as long names), then version 2's", () => {
    const copied = new Set<string>(COMPANY_FIELDS_CARRIED);
    const longNames: Record<string, string> = { companyStateCode: 'companyState', companyCountryCode: 'companyCountry' };
    const companyOrder = Object.keys(company.getFields()).flatMap((name) =>
      copied.has(name) ? [name] : longNames[name] ? [longNames[name]] : [],
    );
    const names = Object.keys(entity.getFields());
    expect(names.slice(0, 5)).toEqual(['entityType', 'entityId', 'entityConnectionPending', 'companyBannerURL', 'companyLogoURL']);
    expect(names.slice(5, 5 + companyOrder.length)).toEqual(companyOrder);
    expect(names.slice(5 + companyOrder.length)).toEqual(['usesCAF', 'cafUrl', 'company']);
  });
});
