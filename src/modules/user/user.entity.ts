// The user: identity fields (authType, credentials, active, synchronised) and the profile of
// the specification's profile table. Profile reference fields are stored as ids/codes;
// their names come from reference data when read.
import { Entity, PrimaryKey, Property, Index, Unique } from '@mikro-orm/decorators/legacy';
import { PrimaryKeyProp, type Opt } from '@mikro-orm/core';

export type AuthType = 'O' | 'I';

@Entity({ tableName: 'app_user' })
// One external identity links to at most one user.
@Unique({ name: 'app_user_idp_identity_unique', properties: ['idpIssuer', 'idpSubject'] })
export class User {
  [PrimaryKeyProp]?: 'uId';

  @PrimaryKey({ fieldName: 'u_id' })
  uId!: number;

  /** Stored as given; uniqueness is case-insensitive (unique index on lower(email)). */
  @Property({ length: 255 })
  @Index({ name: 'app_user_email_lower_unique', expression: 'create unique index "app_user_email_lower_unique" on "app_user" (lower("email"))' })
  email!: string;

  /** O: outbound federation (password grant); I: inbound federation (external identity provider). */
  @Property({ length: 1 })
  authType!: AuthType;

  /** argon2id hash; null for authType I users. */
  @Property({ type: 'text', nullable: true, hidden: true })
  passwordHash?: string | null;

  @Property({ default: true })
  active: boolean & Opt = true;

  /** Synchronised to the directory service: required for the password grant. */
  @Property({ default: false })
  synchronised: boolean & Opt = false;

  /** Issuer and subject of the linked external identity (authType I). */
  @Property({ length: 255, nullable: true })
  idpIssuer?: string | null;

  @Property({ length: 255, nullable: true })
  idpSubject?: string | null;

  // Profile (spec "User profile"). Lengths the spec does not give are documented in the README.
  @Property({ type: 'integer', nullable: true })
  titleId?: number | null;

  @Property({ length: 1, nullable: true })
  genderCode?: string | null;

  @Property({ length: 100, nullable: true })
  firstName?: string | null;

  @Property({ length: 100, nullable: true })
  lastName?: string | null;

  @Property({ length: 2, nullable: true })
  countryCode?: string | null;

  @Property({ length: 30, nullable: true })
  primaryMobile?: string | null;

  @Property({ length: 2000, nullable: true })
  interests?: string | null;

  @Property({ length: 2000, nullable: true })
  dietaryRequirements?: string | null;

  @Property({ length: 2000, nullable: true })
  treatmentNotes?: string | null;

  @Property({ type: 'date', nullable: true })
  dateOfBirth?: string | null;

  @Property({ length: 1024, nullable: true })
  photo?: string | null;

  @Property({ default: false })
  enableLocation: boolean & Opt = false;

  @Property({ default: true })
  enableNotifications: boolean & Opt = true;

  @Property({ default: false })
  allowAllEmails: boolean & Opt = false;

  @Property({ default: false })
  allowNewsletterEmail: boolean & Opt = false;

  @Property({ type: 'integer', nullable: true })
  professionId?: number | null;

  @Property({ type: 'integer', nullable: true })
  specialtyId?: number | null;

  @Property({ type: 'integer', nullable: true })
  conditionId?: number | null;

  @Property({ length: 100, nullable: true })
  otherTitle?: string | null;

  @Property({ length: 100, nullable: true })
  otherProfession?: string | null;

  @Property({ length: 100, nullable: true })
  otherSpecialty?: string | null;

  @Property({ fieldName: 'social_network_a_id', length: 255, nullable: true })
  socialNetworkAId?: string | null;

  @Property({ fieldName: 'social_network_b_id', length: 255, nullable: true })
  socialNetworkBId?: string | null;

  @Property({ fieldName: 'social_network_c_id', length: 255, nullable: true })
  socialNetworkCId?: string | null;

  @Property({ fieldName: 'social_network_c_url', length: 1024, nullable: true })
  socialNetworkCUrl?: string | null;

  @Property({ length: 64, nullable: true })
  timezoneId?: string | null;

  @Property({ length: 1, nullable: true })
  serviceTsAndCs?: string | null;

  @Property({ length: 1, nullable: true })
  serviceTrackingConsent?: string | null;

  @Property({ length: 1, nullable: true })
  cloudStorageConsent?: string | null;

  @Property({ length: 1, nullable: true })
  searchProviderConsent?: string | null;

  @Property({ fieldName: 'social_network_a_consent', length: 1, nullable: true })
  socialNetworkAConsent?: string | null;

  @Property({ type: 'date', defaultRaw: 'current_date' })
  creationDate!: string & Opt;

  @Property({ defaultRaw: 'now()' })
  createdAt: Date & Opt = new Date();

  @Property({ defaultRaw: 'now()', onUpdate: () => new Date() })
  updatedAt: Date & Opt = new Date();
}
