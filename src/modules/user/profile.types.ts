// The GraphQL `User` type: the profile under the spec's names. Its root value is the User
// entity itself; each @Field reads the entity property it decorates and `name` gives the
// spec's wire name, so no mapping code sits between the row and the response. The entity
// stays free of GraphQL decorators because identity columns (password hash, IdP subject)
// live on it too and must never become fields. Reference names (uTitle, uCountryName, ...)
// and addresses are field resolvers in user.resolver.ts.
import { Directive, Field, Int, ObjectType } from 'type-graphql';

@Directive('@key(fields: "uId")')
@ObjectType('User', { description: 'A user profile (findUserProfile). A federation entity keyed by uId.' })
export class UserProfile {
  @Field(() => Int, { name: 'uId', description: 'Id of the user.' })
  uId!: number;

  @Field(() => Int, { name: 'uTitleId', nullable: true, description: 'Title id (titles reference list).' })
  titleId?: number | null;

  @Field(() => String, { name: 'uGenderCode', nullable: true, description: 'Single-letter gender code (genders reference list).' })
  genderCode?: string | null;

  @Field(() => String, { name: 'uFirstName', nullable: true, description: 'First name (at most 100 characters).' })
  firstName?: string | null;

  @Field(() => String, { name: 'uLastName', nullable: true, description: 'Last name (at most 100 characters).' })
  lastName?: string | null;

  @Field(() => String, { name: 'uEmail', description: 'E-mail address; unique, case-insensitive (at most 255 characters).' })
  email!: string;

  @Field(() => String, { name: 'uCountryCode', nullable: true, description: 'ISO 3166-1 alpha-2 country code, upper case.' })
  countryCode?: string | null;

  @Field(() => String, { name: 'uPrimaryMobile', nullable: true, description: 'Primary mobile number (at most 30 characters).' })
  primaryMobile?: string | null;

  @Field(() => String, { name: 'uInterests', nullable: true, description: 'Interests (at most 2000 characters).' })
  interests?: string | null;

  @Field(() => String, { name: 'uDietaryRequirements', nullable: true, description: 'Dietary requirements (at most 2000 characters).' })
  dietaryRequirements?: string | null;

  @Field(() => String, { name: 'uTreatmentNotes', nullable: true, description: 'Treatment notes (at most 2000 characters).' })
  treatmentNotes?: string | null;

  @Field(() => String, { name: 'uDateOfBirth', nullable: true, description: 'Date of birth, YYYY-MM-DD.' })
  dateOfBirth?: string | null;

  @Field(() => String, { name: 'uCreationDate', description: 'Day the user was created, YYYY-MM-DD.' })
  creationDate!: string;

  @Field(() => String, { name: 'uPhoto', nullable: true, description: 'Photo URL or storage key (at most 1024 characters).' })
  photo?: string | null;

  @Field({ name: 'uEnableLocation', description: 'Whether the apps may use the location.' })
  enableLocation!: boolean;

  @Field({ name: 'uEnableNotifications', description: 'Whether push notifications are on.' })
  enableNotifications!: boolean;

  @Field({ name: 'uAllowAllEmails', description: 'Whether all e-mails are allowed.' })
  allowAllEmails!: boolean;

  @Field({ name: 'uAllowNewsletterEmail', description: 'Whether newsletter e-mails are allowed.' })
  allowNewsletterEmail!: boolean;

  @Field(() => Int, { name: 'uProfessionId', nullable: true, description: 'Profession id (professions reference list).' })
  professionId?: number | null;

  @Field(() => Int, { name: 'uSpecialtyId', nullable: true, description: 'Specialty id (specialties reference list).' })
  specialtyId?: number | null;

  @Field(() => Int, { name: 'uConditionId', nullable: true, description: 'Condition id (conditions reference list).' })
  conditionId?: number | null;

  @Field(() => String, { name: 'uOtherTitle', nullable: true, description: 'Free-text title when none of the list fits (at most 100 characters).' })
  otherTitle?: string | null;

  @Field(() => String, { name: 'uOtherProfession', nullable: true, description: 'Free-text profession (at most 100 characters).' })
  otherProfession?: string | null;

  @Field(() => String, { name: 'uOtherSpecialty', nullable: true, description: 'Free-text specialty (at most 100 characters).' })
  otherSpecialty?: string | null;

  @Field(() => String, { name: 'uSocialNetworkAId', nullable: true, description: 'Id on social network A (at most 255 characters).' })
  socialNetworkAId?: string | null;

  @Field(() => String, { name: 'uSocialNetworkBId', nullable: true, description: 'Id on social network B (at most 255 characters).' })
  socialNetworkBId?: string | null;

  @Field(() => String, { name: 'uSocialNetworkCId', nullable: true, description: 'Id on social network C (at most 255 characters).' })
  socialNetworkCId?: string | null;

  @Field(() => String, { name: 'uSocialNetworkCUrl', nullable: true, description: 'Profile URL on social network C (at most 1024 characters).' })
  socialNetworkCUrl?: string | null;

  @Field(() => String, { name: 'uTimezoneId', nullable: true, description: 'IANA time zone id.' })
  timezoneId?: string | null;

  @Field(() => String, { name: 'uServiceTsAndCs', nullable: true, description: 'Service terms and conditions accepted: Y or N.' })
  serviceTsAndCs?: string | null;

  @Field(() => String, { name: 'uServiceTrackingConsent', nullable: true, description: 'Tracking consent: Y or N.' })
  serviceTrackingConsent?: string | null;

  @Field(() => String, { name: 'uCloudStorageConsent', nullable: true, description: 'Cloud storage consent: Y or N.' })
  cloudStorageConsent?: string | null;

  @Field(() => String, { name: 'uSearchProviderConsent', nullable: true, description: 'Search provider consent: Y or N.' })
  searchProviderConsent?: string | null;

  @Field(() => String, { name: 'uSocialNetworkAConsent', nullable: true, description: 'Social network A consent: Y or N.' })
  socialNetworkAConsent?: string | null;
}

@ObjectType({ description: 'Result of updateUserProfile.' })
export class ProfileUpdateResult {
  @Field(() => Int, { description: 'Number of fields whose stored value really changed.' })
  updatedFieldCount!: number;
}
