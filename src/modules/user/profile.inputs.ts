// Body of updateUserProfile. Every field a profile read returns is accepted, so the expected
// client flow (read, edit, send back) works: read-only fields (uTitle, uCreationDate, ...)
// are ignored, a null means "no value given" (it never erases: that is what fieldsToNull is
// for), and an omitted field keeps its stored value.
import { Field, InputType, Int } from 'type-graphql';

@InputType({ description: 'Profile update (updateUserProfile). Null or omitted fields keep their values; fieldsToNull erases.' })
export class UpdateUserProfileInput {
  @Field(() => Int, { description: 'Id of the updating user; must be the caller.' })
  uId!: number;

  @Field(() => [String], { nullable: true, description: 'Names of fields to set to null, e.g. ["uInterests"].' })
  fieldsToNull?: string[] | null;

  @Field(() => Int, { nullable: true, description: 'Title id (titles reference list).' })
  uTitleId?: number | null;

  @Field(() => String, { nullable: true, description: 'Read-only: ignored (the title name comes from uTitleId).' })
  uTitle?: string | null;

  @Field(() => String, { nullable: true, description: 'Single-letter gender code (genders reference list).' })
  uGenderCode?: string | null;

  @Field(() => String, { nullable: true, description: 'Read-only: ignored.' })
  uGenderName?: string | null;

  @Field(() => String, { nullable: true, description: 'First name (at most 100 characters).' })
  uFirstName?: string | null;

  @Field(() => String, { nullable: true, description: 'Last name (at most 100 characters).' })
  uLastName?: string | null;

  @Field(() => String, { nullable: true, description: 'E-mail address; must stay unique, case-insensitive (at most 255 characters).' })
  uEmail?: string | null;

  @Field(() => String, { nullable: true, description: 'ISO 3166-1 alpha-2 country code, any case.' })
  uCountryCode?: string | null;

  @Field(() => String, { nullable: true, description: 'Read-only: ignored.' })
  uCountryName?: string | null;

  @Field(() => String, { nullable: true, description: 'Primary mobile number (at most 30 characters).' })
  uPrimaryMobile?: string | null;

  @Field(() => String, { nullable: true, description: 'Interests (at most 2000 characters).' })
  uInterests?: string | null;

  @Field(() => String, { nullable: true, description: 'Dietary requirements (at most 2000 characters).' })
  uDietaryRequirements?: string | null;

  @Field(() => String, { nullable: true, description: 'Treatment notes (at most 2000 characters).' })
  uTreatmentNotes?: string | null;

  @Field(() => String, { nullable: true, description: 'Date of birth, YYYY-MM-DD, not in the future.' })
  uDateOfBirth?: string | null;

  @Field(() => String, { nullable: true, description: 'Read-only: ignored.' })
  uCreationDate?: string | null;

  @Field(() => String, { nullable: true, description: 'Photo URL or storage key (at most 1024 characters).' })
  uPhoto?: string | null;

  @Field(() => Boolean, { nullable: true, description: 'Whether the apps may use the location.' })
  uEnableLocation?: boolean | null;

  @Field(() => Boolean, { nullable: true, description: 'Whether push notifications are on.' })
  uEnableNotifications?: boolean | null;

  @Field(() => Boolean, { nullable: true, description: 'Whether all e-mails are allowed.' })
  uAllowAllEmails?: boolean | null;

  @Field(() => Boolean, { nullable: true, description: 'Whether newsletter e-mails are allowed.' })
  uAllowNewsletterEmail?: boolean | null;

  @Field(() => Int, { nullable: true, description: 'Profession id (professions reference list).' })
  uProfessionId?: number | null;

  @Field(() => String, { nullable: true, description: 'Read-only: ignored.' })
  uProfessionName?: string | null;

  @Field(() => Int, { nullable: true, description: 'Specialty id; must belong to the profession when both are given.' })
  uSpecialtyId?: number | null;

  @Field(() => String, { nullable: true, description: 'Read-only: ignored.' })
  uSpecialtyName?: string | null;

  @Field(() => Int, { nullable: true, description: 'Condition id (conditions reference list).' })
  uConditionId?: number | null;

  @Field(() => String, { nullable: true, description: 'Read-only: ignored.' })
  uConditionName?: string | null;

  @Field(() => String, { nullable: true, description: 'Free-text title (at most 100 characters).' })
  uOtherTitle?: string | null;

  @Field(() => String, { nullable: true, description: 'Free-text profession (at most 100 characters).' })
  uOtherProfession?: string | null;

  @Field(() => String, { nullable: true, description: 'Free-text specialty (at most 100 characters).' })
  uOtherSpecialty?: string | null;

  @Field(() => String, { nullable: true, description: 'Id on social network A (at most 255 characters).' })
  uSocialNetworkAId?: string | null;

  @Field(() => String, { nullable: true, description: 'Id on social network B (at most 255 characters).' })
  uSocialNetworkBId?: string | null;

  @Field(() => String, { nullable: true, description: 'Id on social network C (at most 255 characters).' })
  uSocialNetworkCId?: string | null;

  @Field(() => String, { nullable: true, description: 'Profile URL on social network C (at most 1024 characters).' })
  uSocialNetworkCUrl?: string | null;

  @Field(() => String, { nullable: true, description: 'IANA time zone id, e.g. Australia/Sydney.' })
  uTimezoneId?: string | null;

  @Field(() => String, { nullable: true, description: 'Read-only: ignored.' })
  uTimezoneName?: string | null;

  @Field(() => String, { nullable: true, description: 'Service terms and conditions accepted: Y or N.' })
  uServiceTsAndCs?: string | null;

  @Field(() => String, { nullable: true, description: 'Tracking consent: Y or N.' })
  uServiceTrackingConsent?: string | null;

  @Field(() => String, { nullable: true, description: 'Cloud storage consent: Y or N.' })
  uCloudStorageConsent?: string | null;

  @Field(() => String, { nullable: true, description: 'Search provider consent: Y or N.' })
  uSearchProviderConsent?: string | null;

  @Field(() => String, { nullable: true, description: 'Social network A consent: Y or N.' })
  uSocialNetworkAConsent?: string | null;
}
