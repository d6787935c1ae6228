// Companies ("walls"), their roles for users, and their API keys. Discovery, directory,
// library, notification and support-group modules all refer to these.
// Company doubles as the GraphQL federation entity; computed fields (state and country names,
// image URLs, criteria) are resolved in company.resolver.ts.
import { Entity, PrimaryKey, Property, ManyToOne, Unique, Enum } from '@mikro-orm/decorators/legacy';
import type { Opt, Rel } from '@mikro-orm/core';
import { PrimaryKeyProp, t } from '@mikro-orm/core';
import { Directive, Field, Int, ObjectType } from 'type-graphql';
import { Node } from '../../graphql/node';
import { lengthNotes } from '../../graphql/rules';
import { User } from '../user';

/**
 * Bounds of the spec's Limits table (company discovery fields), in characters: the columns here,
 * the descriptions here and of the recommended entity (discovery.types.ts) read them.
 * companyState and companyCountry are long names derived from the stored codes.
 */
export const COMPANY_LIMITS = {
  companyName: 100,
  companyDesc: 2000,
  companyAddress: 255,
  companyCity: 30,
  companyPostcode: 12,
  companyState: 255,
  companyCountry: 255,
  companyContactName: 50,
  companyContactEmail: 255,
  companyWebsite: 255,
} as const;

/** A company field's bound, in the words the input rules are described in. */
export const companyAtMost = lengthNotes(COMPANY_LIMITS);

@ObjectType({ implements: Node, description: 'A company wall users connect to.', simpleResolvers: true })
@Directive('@key(fields: "companyId")')
@Entity({ tableName: 'company' })
export class Company {
  [PrimaryKeyProp]?: 'companyId';

  @Field(() => Int, { description: 'Id of the company.' }) @PrimaryKey() companyId!: number;

  @Field({ description: `Name of the company. ${companyAtMost('companyName')}` })
  @Property({ length: COMPANY_LIMITS.companyName })
  companyName!: string;

  @Field(() => String, { nullable: true, description: `Description. ${companyAtMost('companyDesc')}` })
  @Property({ length: COMPANY_LIMITS.companyDesc, nullable: true })
  companyDesc?: string | null;

  @Field(() => String, { nullable: true, description: `Street address. ${companyAtMost('companyAddress')}` })
  @Property({ length: COMPANY_LIMITS.companyAddress, nullable: true })
  companyAddress?: string | null;

  @Field(() => String, { nullable: true, description: `City. ${companyAtMost('companyCity')}` })
  @Property({ length: COMPANY_LIMITS.companyCity, nullable: true })
  companyCity?: string | null;

  @Field(() => String, { nullable: true, description: `Postcode. ${companyAtMost('companyPostcode')}` })
  @Property({ length: COMPANY_LIMITS.companyPostcode, nullable: true })
  companyPostcode?: string | null;

  @Field(() => String, { nullable: true, description: 'ISO 3166-2 subdivision code without the country prefix (e.g. NSW).' })
  @Property({ length: 6, nullable: true })
  companyStateCode?: string | null;

  @Field(() => String, { nullable: true, description: 'ISO 3166-1 alpha-2 country code, upper case.' })
  @Property({ length: 2, nullable: true })
  companyCountryCode?: string | null;

  @Field(() => String, { nullable: true, description: `Contact person. ${companyAtMost('companyContactName')}` })
  @Property({ length: COMPANY_LIMITS.companyContactName, nullable: true })
  companyContactName?: string | null;

  @Field(() => String, { nullable: true, description: `Contact e-mail address. ${companyAtMost('companyContactEmail')}` })
  @Property({ length: COMPANY_LIMITS.companyContactEmail, nullable: true })
  companyContactEmail?: string | null;

  @Field(() => String, { nullable: true, description: `Web site. ${companyAtMost('companyWebsite')}` })
  @Property({ length: COMPANY_LIMITS.companyWebsite, nullable: true })
  companyWebsite?: string | null;

  /** Storage keys of the banner (criteria variant) and the default logo. */
  @Property({ length: 255, nullable: true }) bannerKey?: string | null;

  @Property({ length: 255, nullable: true }) logoKey?: string | null;

  @Property({ default: true }) active: boolean & Opt = true;

  /** A hidden wall is never recommended. */
  @Property({ default: false }) hiddenWall: boolean & Opt = false;

  /** Connection requests wait for manual vetting (true) or are accepted at once (false). */
  @Property({ default: true }) vetsConnections: boolean & Opt = true;

  @Field(() => Boolean, { name: 'usesCAF', simple: false, description: 'Whether the company uses a connection application form (CAF).' })
  @Property({ default: false })
  usesCaf: boolean & Opt = false;

  @Field(() => String, { nullable: true, description: 'URL of the connection application form, when the company uses one.' })
  @Property({ length: 1024, nullable: true })
  cafUrl?: string | null;

  /** Feature flag: the company may use smart directories. */
  @Property({ default: false }) smartDirectoryEnabled: boolean & Opt = false;

  @Property({ defaultRaw: 'now()' }) createdAt: Date & Opt = new Date();
}

export type CompanyRoleName = 'ADMIN' | 'PUSH_NOTIFICATION';

/** A user's role on a company: ADMIN (administers the wall), PUSH_NOTIFICATION (may send notifications). */
@Entity({ tableName: 'company_role' })
@Unique({ properties: ['company', 'user', 'role'] })
export class CompanyRole {
  @PrimaryKey() id!: number;

  @ManyToOne(() => Company, { fieldName: 'company_id', deleteRule: 'cascade' }) company!: Rel<Company>;

  @ManyToOne(() => User, { fieldName: 'user_id', deleteRule: 'cascade' }) user!: Rel<User>;

  @Enum({ items: ['ADMIN', 'PUSH_NOTIFICATION'], nativeEnumName: undefined }) role!: CompanyRoleName;
}

/** Company API key (x-service-company-api-key): a UUID stored as its SHA-256 hash. */
@Entity({ tableName: 'company_api_key' })
export class CompanyApiKey {
  @PrimaryKey() id!: number;

  @Property({ length: 64, unique: true }) keyHash!: string;

  @ManyToOne(() => Company, { fieldName: 'company_id', deleteRule: 'cascade' }) company!: Rel<Company>;

  @Property({ default: true }) active: boolean & Opt = true;

  /** The membership-related identifier definition the key is linked to (createMembershipDetails). */
  @Property({ type: t.integer, nullable: true }) membershipIdentifierId?: number | null;

  @Property({ defaultRaw: 'now()' }) createdAt: Date & Opt = new Date();
}
