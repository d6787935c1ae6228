// Companies ("walls"), their roles for users, and their API keys. Discovery, directory,
// library, notification and support-group modules all refer to these.
// Company doubles as the GraphQL federation entity; computed fields (state and country names,
// image URLs, criteria) are resolved in company.resolver.ts.
import { Entity, PrimaryKey, Property, ManyToOne, Unique, Enum } from '@mikro-orm/decorators/legacy';
import type { Opt, Rel } from '@mikro-orm/core';
import { PrimaryKeyProp } from '@mikro-orm/core';
import { Directive, Field, Int, ObjectType } from 'type-graphql';
import { User } from '../user/user.entity';

@ObjectType({ description: 'A company wall users connect to.' })
@Directive('@key(fields: "companyId")')
@Entity({ tableName: 'company' })
export class Company {
  [PrimaryKeyProp]?: 'companyId';

  @Field(() => Int, { description: 'Id of the company.' })
  @PrimaryKey()
  companyId!: number;

  @Field({ description: 'Name of the company (at most 100 characters).' })
  @Property({ length: 100 })
  companyName!: string;

  @Field(() => String, { nullable: true, description: 'Description (at most 2000 characters).' })
  @Property({ length: 2000, nullable: true })
  companyDesc?: string | null;

  @Field(() => String, { nullable: true, description: 'Street address (at most 255 characters).' })
  @Property({ length: 255, nullable: true })
  companyAddress?: string | null;

  @Field(() => String, { nullable: true, description: 'City (at most 30 characters).' })
  @Property({ length: 30, nullable: true })
  companyCity?: string | null;

  @Field(() => String, { nullable: true, description: 'Postcode (at most 12 characters).' })
  @Property({ length: 12, nullable: true })
  companyPostcode?: string | null;

  @Field(() => String, { nullable: true, description: 'ISO 3166-2 subdivision code without the country prefix (e.g. NSW).' })
  @Property({ length: 6, nullable: true })
  companyStateCode?: string | null;

  @Field(() => String, { nullable: true, description: 'ISO 3166-1 alpha-2 country code, upper case.' })
  @Property({ length: 2, nullable: true })
  companyCountryCode?: string | null;

  @Field(() => String, { nullable: true, description: 'Contact person (at most 50 characters).' })
  @Property({ length: 50, nullable: true })
  companyContactName?: string | null;

  @Field(() => String, { nullable: true, description: 'Contact e-mail address (at most 255 characters).' })
  @Property({ length: 255, nullable: true })
  companyContactEmail?: string | null;

  @Field(() => String, { nullable: true, description: 'Web site (at most 255 characters).' })
  @Property({ length: 255, nullable: true })
  companyWebsite?: string | null;

  /** Storage keys of the banner (criteria variant) and the default logo. */
  @Property({ length: 255, nullable: true })
  bannerKey?: string | null;

  @Property({ length: 255, nullable: true })
  logoKey?: string | null;

  @Property({ default: true })
  active: boolean & Opt = true;

  /** A hidden wall is never recommended. */
  @Property({ default: false })
  hiddenWall: boolean & Opt = false;

  /** Connection requests wait for manual vetting (true) or are accepted at once (false). */
  @Property({ default: true })
  vetsConnections: boolean & Opt = true;

  @Field(() => Boolean, { name: 'usesCAF', description: 'Whether the company uses a connection application form (CAF).' })
  @Property({ default: false })
  usesCaf: boolean & Opt = false;

  @Field(() => String, { nullable: true, description: 'URL of the connection application form, when the company uses one.' })
  @Property({ length: 1024, nullable: true })
  cafUrl?: string | null;

  /** Feature flag: the company may use smart directories. */
  @Property({ default: false })
  smartDirectoryEnabled: boolean & Opt = false;

  @Property({ defaultRaw: 'now()' })
  createdAt: Date & Opt = new Date();
}

export type CompanyRoleName = 'ADMIN' | 'PUSH_NOTIFICATION';

/** A user's role on a company: ADMIN (administers the wall), PUSH_NOTIFICATION (may send notifications). */
@Entity({ tableName: 'company_role' })
@Unique({ properties: ['company', 'user', 'role'] })
export class CompanyRole {
  @PrimaryKey()
  id!: number;

  @ManyToOne(() => Company, { fieldName: 'company_id', deleteRule: 'cascade' })
  company!: Rel<Company>;

  @ManyToOne(() => User, { fieldName: 'user_id', deleteRule: 'cascade' })
  user!: Rel<User>;

  @Enum({ items: ['ADMIN', 'PUSH_NOTIFICATION'], nativeEnumName: undefined })
  role!: CompanyRoleName;
}

/** Company API key (x-service-company-api-key): a UUID stored as its SHA-256 hash. */
@Entity({ tableName: 'company_api_key' })
export class CompanyApiKey {
  @PrimaryKey()
  id!: number;

  @Property({ length: 64, unique: true })
  keyHash!: string;

  @ManyToOne(() => Company, { fieldName: 'company_id', deleteRule: 'cascade' })
  company!: Rel<Company>;

  @Property({ default: true })
  active: boolean & Opt = true;

  /** The membership-related identifier definition the key is linked to (createMembershipDetails). */
  @Property({ type: 'integer', nullable: true })
  membershipIdentifierId?: number | null;

  @Property({ defaultRaw: 'now()' })
  createdAt: Date & Opt = new Date();
}
