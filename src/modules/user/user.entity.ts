// The user: identity fields (authType, credentials, active, synchronised) and the profile of
// the specification's profile table. Profile reference fields are stored as ids/codes;
// their names come from reference data when read.
import { Entity, PrimaryKey, Property, Index, Unique } from '@mikro-orm/decorators/legacy';
import { PrimaryKeyProp, t, type Opt } from '@mikro-orm/core';

export type AuthType = 'O' | 'I';

/**
 * Bounds of the profile's text columns, in characters, by the spec's field names: the columns
 * below and the rules of UpdateUserProfileInput read them. The spec gives none; docs/api/user-profile.md
 * documents these.
 */
export const PROFILE_LIMITS = {
  uGenderCode: 1,
  uFirstName: 100,
  uLastName: 100,
  uEmail: 255,
  uCountryCode: 2,
  uPrimaryMobile: 30,
  uInterests: 2000,
  uDietaryRequirements: 2000,
  uTreatmentNotes: 2000,
  uPhoto: 1024,
  uOtherTitle: 100,
  uOtherProfession: 100,
  uOtherSpecialty: 100,
  uSocialNetworkAId: 255,
  uSocialNetworkBId: 255,
  uSocialNetworkCId: 255,
  uSocialNetworkCUrl: 1024,
  uTimezoneId: 64,
  uServiceTsAndCs: 1,
  uServiceTrackingConsent: 1,
  uCloudStorageConsent: 1,
  uSearchProviderConsent: 1,
  uSocialNetworkAConsent: 1,
} as const;

@Entity({ tableName: 'app_user' })
// One external identity links to at most one user.
@Unique({ name: 'app_user_idp_identity_unique', properties: ['idpIssuer', 'idpSubject'] })
export class User {
  [PrimaryKeyProp]?: 'uId';

  @PrimaryKey({ fieldName: 'u_id' }) uId!: number;

  /** Stored as given; uniqueness is case-insensitive (unique index on lower(email)). */
  @Property({ length: PROFILE_LIMITS.uEmail })
  @Index({
    name: 'app_user_email_lower_unique',
    expression: 'create unique index "app_user_email_lower_unique" on "app_user" (lower("email"))',
  })
  email!: string;

  /** O: outbound federation (password grant); I: inbound federation (external identity provider). */
  @Property({ length: 1 }) authType!: AuthType;

  /** argon2id hash; null for authType I users. */
  @Property({ type: 'text', nullable: true, hidden: true }) passwordHash?: string | null;

  @Property({ default: true }) active: boolean & Opt = true;

  /** Synchronised to the directory service: required for the password grant. */
  @Property({ default: false }) synchronised: boolean & Opt = false;

  /** Issuer and subject of the linked external identity (authType I). */
  @Property({ length: 255, nullable: true }) idpIssuer?: string | null;

  @Property({ length: 255, nullable: true }) idpSubject?: string | null;

  // Profile (spec "User profile"). Lengths the spec does not give are documented in docs/api/user-profile.md.
  @Property({ type: t.integer, nullable: true }) titleId?: number | null;

  @Property({ length: PROFILE_LIMITS.uGenderCode, nullable: true }) genderCode?: string | null;

  @Property({ length: PROFILE_LIMITS.uFirstName, nullable: true }) firstName?: string | null;

  @Property({ length: PROFILE_LIMITS.uLastName, nullable: true }) lastName?: string | null;

  @Property({ length: PROFILE_LIMITS.uCountryCode, nullable: true }) countryCode?: string | null;

  @Property({ length: PROFILE_LIMITS.uPrimaryMobile, nullable: true }) primaryMobile?: string | null;

  @Property({ length: PROFILE_LIMITS.uInterests, nullable: true }) interests?: string | null;

  @Property({ length: PROFILE_LIMITS.uDietaryRequirements, nullable: true }) dietaryRequirements?: string | null;

  @Property({ length: PROFILE_LIMITS.uTreatmentNotes, nullable: true }) treatmentNotes?: string | null;

  @Property({ type: 'date', nullable: true }) dateOfBirth?: string | null;

  @Property({ length: PROFILE_LIMITS.uPhoto, nullable: true }) photo?: string | null;

  @Property({ default: false }) enableLocation: boolean & Opt = false;

  @Property({ default: true }) enableNotifications: boolean & Opt = true;

  @Property({ default: false }) allowAllEmails: boolean & Opt = false;

  @Property({ default: false }) allowNewsletterEmail: boolean & Opt = false;

  @Property({ type: t.integer, nullable: true }) professionId?: number | null;

  @Property({ type: t.integer, nullable: true }) specialtyId?: number | null;

  @Property({ type: t.integer, nullable: true }) conditionId?: number | null;

  @Property({ length: PROFILE_LIMITS.uOtherTitle, nullable: true }) otherTitle?: string | null;

  @Property({ length: PROFILE_LIMITS.uOtherProfession, nullable: true }) otherProfession?: string | null;

  @Property({ length: PROFILE_LIMITS.uOtherSpecialty, nullable: true }) otherSpecialty?: string | null;

  @Property({ fieldName: 'social_network_a_id', length: PROFILE_LIMITS.uSocialNetworkAId, nullable: true })
  socialNetworkAId?: string | null;

  @Property({ fieldName: 'social_network_b_id', length: PROFILE_LIMITS.uSocialNetworkBId, nullable: true })
  socialNetworkBId?: string | null;

  @Property({ fieldName: 'social_network_c_id', length: PROFILE_LIMITS.uSocialNetworkCId, nullable: true })
  socialNetworkCId?: string | null;

  @Property({ fieldName: 'social_network_c_url', length: PROFILE_LIMITS.uSocialNetworkCUrl, nullable: true })
  socialNetworkCUrl?: string | null;

  @Property({ length: PROFILE_LIMITS.uTimezoneId, nullable: true }) timezoneId?: string | null;

  @Property({ length: PROFILE_LIMITS.uServiceTsAndCs, nullable: true }) serviceTsAndCs?: string | null;

  @Property({ length: PROFILE_LIMITS.uServiceTrackingConsent, nullable: true }) serviceTrackingConsent?: string | null;

  @Property({ length: PROFILE_LIMITS.uCloudStorageConsent, nullable: true }) cloudStorageConsent?: string | null;

  @Property({ length: PROFILE_LIMITS.uSearchProviderConsent, nullable: true }) searchProviderConsent?: string | null;

  @Property({ fieldName: 'social_network_a_consent', length: PROFILE_LIMITS.uSocialNetworkAConsent, nullable: true })
  socialNetworkAConsent?: string | null;

  @Property({ type: 'date', defaultRaw: 'current_date' }) creationDate!: string & Opt;

  @Property({ defaultRaw: 'now()' }) createdAt: Date & Opt = new Date();

  @Property({ defaultRaw: 'now()', onUpdate: () => new Date() }) updatedAt: Date & Opt = new Date();
}
