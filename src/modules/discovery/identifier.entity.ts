// Global identifier definitions (e.g. a national registration number) and the values users
// hold for them. A membership record (createMembershipDetails) is a user identifier value
// written by a company for the identifier its API key is linked to.
import { Entity, PrimaryKey, Property, ManyToOne, Unique } from '@mikro-orm/decorators/legacy';
import type { Opt, Rel } from '@mikro-orm/core';
import { PrimaryKeyProp } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { User } from '../user';
import { Company } from '../company';

/** The specification's Limits for membership details (a membership record is a user identifier value). */
export const MEMBERSHIP_LIMITS = {
  membershipId: 100,
  status: 50,
  customField1: 100,
  customField2: 100,
  customField3: 100,
  customField4: 100,
  customField5: 100,
} as const;

@ObjectType({
  description: 'An identifier a discovery criterion may ask for, such as a national registration number.',
  simpleResolvers: true,
})
@Entity({ tableName: 'identifier_definition' })
export class IdentifierDefinition {
  [PrimaryKeyProp]?: 'identifierId';

  @Field(() => Int, { description: 'Id of the identifier, as listed in criteria identifiers.' }) @PrimaryKey() identifierId!: number;

  @Field({ description: 'Short name.' }) @Property({ length: 50 }) name!: string;

  @Field({ name: 'desc', simple: false, description: 'Long name.' }) @Property({ length: 255 }) description!: string;

  @Field(() => String, { nullable: true, description: 'Example value, shown as a placeholder.' })
  @Property({ length: 100, nullable: true })
  formatDesc?: string | null;

  @Field(() => String, { nullable: true, description: 'Regular expression a value must match (format only, not validity).' })
  @Property({ length: 500, nullable: true })
  formatRegex?: string | null;

  @Field({ description: 'ISO 3166-1 alpha-2 code of the country that issues the identifier, upper case.' })
  @Property({ length: 2 })
  countryCode!: string;

  @Property({ defaultRaw: 'now()' }) createdAt: Date & Opt = new Date();
}

/** A user's value for one identifier; at most one per user and identifier. */
@Entity({ tableName: 'user_identifier' })
@Unique({ properties: ['user', 'identifier'] })
export class UserIdentifier {
  @PrimaryKey() id!: number;

  @ManyToOne(() => User, { fieldName: 'user_id', deleteRule: 'cascade' }) user!: Rel<User>;

  @ManyToOne(() => IdentifierDefinition, { fieldName: 'identifier_id', deleteRule: 'cascade' }) identifier!: Rel<IdentifierDefinition>;

  /** The identifier value; for a membership record, the membershipId. */
  @Property({ length: MEMBERSHIP_LIMITS.membershipId }) value!: string;

  @Property({ length: MEMBERSHIP_LIMITS.status, nullable: true }) status?: string | null;

  @Property({ type: 'datetime', nullable: true }) statusDate?: Date | null;

  @Property({ length: MEMBERSHIP_LIMITS.customField1, nullable: true }) customField1?: string | null;

  @Property({ length: MEMBERSHIP_LIMITS.customField2, nullable: true }) customField2?: string | null;

  @Property({ length: MEMBERSHIP_LIMITS.customField3, nullable: true }) customField3?: string | null;

  @Property({ length: MEMBERSHIP_LIMITS.customField4, nullable: true }) customField4?: string | null;

  @Property({ length: MEMBERSHIP_LIMITS.customField5, nullable: true }) customField5?: string | null;

  /** The company whose API key wrote the value (membership records); null when the user entered it. */
  @ManyToOne(() => Company, { fieldName: 'source_company_id', nullable: true, deleteRule: 'set null' }) sourceCompany?: Rel<Company> | null;

  @Property({ defaultRaw: 'now()' }) createdAt: Date & Opt = new Date();

  @Property({ defaultRaw: 'now()', onUpdate: () => new Date() }) updatedAt: Date & Opt = new Date();
}
