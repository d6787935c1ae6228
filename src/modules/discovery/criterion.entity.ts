// Discovery criteria of a company: tuples of countries, professions, specialties and
// identifiers (an empty list is open). Matching runs in SQL over these arrays (matching.ts),
// through one GIN index of the tuples they accept; the arrays are kept sorted and distinct so
// that the unique constraint rules out duplicate tuples per company.
import { Entity, PrimaryKey, Property, ManyToOne, Unique, Index, BeforeCreate, BeforeUpdate } from '@mikro-orm/decorators/legacy';
import type { Opt, Rel } from '@mikro-orm/core';
import { PrimaryKeyProp } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { Company } from '../company';

const sortedDistinct = <T extends string | number>(values: T[]): T[] => [...new Set(values)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

@ObjectType({
  description: 'One discovery criterion of a company: a user meets it when no dimension mismatches their profile.',
  simpleResolvers: true,
})
@Entity({ tableName: 'discovery_criterion' })
@Unique({ name: 'discovery_criterion_tuple_unique', properties: ['company', 'countries', 'professions', 'specialties', 'identifiers'] })
// Matching finds a user's candidate criteria in this one index of the tuples each criterion
// accepts (matching.ts; the function is created by the migration `discovery_match_keys`).
@Index({
  name: 'discovery_criterion_match_keys',
  expression:
    'create index "discovery_criterion_match_keys" on "discovery_criterion" ' +
    'using gin ("discovery"."match_keys"("countries", "professions", "specialties")) with (fastupdate = off)',
})
export class DiscoveryCriterion {
  [PrimaryKeyProp]?: 'criterionId';

  @Field(() => Int, { name: 'criteriaId', simple: false, description: 'Id of the criterion.' }) @PrimaryKey() criterionId!: number;

  @ManyToOne(() => Company, { fieldName: 'company_id', deleteRule: 'cascade' }) company!: Rel<Company>;

  @Field(() => [String], { description: 'ISO 3166-1 alpha-2 country codes, upper case; empty means every country.' })
  @Property({ type: 'string[]', columnType: 'text[]' })
  countries: string[] & Opt = [];

  @Field(() => [Int], { description: 'Profession ids; empty means any profession.' })
  @Property({ type: 'number[]', columnType: 'int[]' })
  professions: number[] & Opt = [];

  @Field(() => [Int], { description: 'Specialty ids; empty means any specialty.' })
  @Property({ type: 'number[]', columnType: 'int[]' })
  specialties: number[] & Opt = [];

  @Field(() => [Int], {
    description: 'Identifier ids (see identifierDefinitions); at most one per country; empty means none is asked for.',
  })
  @Property({ type: 'number[]', columnType: 'int[]' })
  identifiers: number[] & Opt = [];

  @Property({ defaultRaw: 'now()' }) createdAt: Date & Opt = new Date();

  @BeforeCreate()
  @BeforeUpdate()
  normalise(): void {
    this.countries = sortedDistinct(this.countries.map((c) => c.toUpperCase()));
    this.professions = sortedDistinct(this.professions);
    this.specialties = sortedDistinct(this.specialties);
    this.identifiers = sortedDistinct(this.identifiers);
  }
}
