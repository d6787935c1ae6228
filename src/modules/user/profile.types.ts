// The GraphQL `User` type: the profile under the spec's names. Its root value is the User
// entity itself; each @Field reads the entity property it decorates and `name` gives the
// spec's wire name, so no mapping code sits between the row and the response. The entity
// stays free of GraphQL decorators because identity columns (password hash, IdP subject)
// live on it too and must never become fields. Reference names (uTitle, uCountryName, ...)
// and addresses are field resolvers in user.resolver.ts.
import { Directive, Field, Int, ObjectType } from 'type-graphql';
import { lengthNotes } from '../../graphql/rules';
import { Node } from '../../graphql/node';
import { PROFILE_LIMITS } from './user.entity';

/** A field's bound, in the words the input's rules are described in. */
const atMost = lengthNotes(PROFILE_LIMITS);

@Directive('@key(fields: "uId")')
@ObjectType('User', { implements: Node, description: 'A user profile (findUserProfile). A federation entity keyed by uId.' })
export class UserProfile {
  @Field(() => Int, { name: 'uId', description: 'Id of the user.' }) uId!: number;

  @Field(() => Int, { name: 'uTitleId', nullable: true, description: 'Title id (titles reference list).' }) titleId?: number | null;

  @Field(() => String, { name: 'uGenderCode', nullable: true, description: 'Single-letter gender code (genders reference list).' })
  genderCode?: string | null;

  @Field(() => String, { name: 'uFirstName', nullable: true, description: `First name. ${atMost('uFirstName')}` })
  firstName?: string | null;

  @Field(() => String, { name: 'uLastName', nullable: true, description: `Last name. ${atMost('uLastName')}` }) lastName?: string | null;

  @Field(() => String, { name: 'uEmail', description: `E-mail address; unique, case-insensitive. ${atMost('uEmail')}` }) email!: string;

  @Field(() => String, { name: 'uCountryCode', nullable: true, description: 'ISO 3166-1 alpha-2 country code, upper case.' })
  countryCode?: string | null;

  @Field(() => String, { name: 'uPrimaryMobile', nullable: true, description: `Primary mobile number. ${atMost('uPrimaryMobile')}` })
  primaryMobile?: string | null;

  @Field(() => String, { name: 'uInterests', nullable: true, description: `Interests. ${atMost('uInterests')}` }) interests?: string | null;

  @Field(() => String, {
    name: 'uDietaryRequirements',
    nullable: true,
    description: `Dietary requirements. ${atMost('uDietaryRequirements')}`,
  })
  dietaryRequirements?: string | null;

  @Field(() => String, { name: 'uTreatmentNotes', nullable: true, description: `Treatment notes. ${atMost('uTreatmentNotes')}` })
  treatmentNotes?: string | null;

  @Field(() => String, { name: 'uDateOfBirth', nullable: true, description: 'Date of birth, YYYY-MM-DD.' }) dateOfBirth?: string | null;

  @Field(() => String, { name: 'uCreationDate', description: 'Day the user was created, YYYY-MM-DD.' }) creationDate!: string;

  @Field(() => String, { name: 'uPhoto', nullable: true, description: `Photo URL or storage key. ${atMost('uPhoto')}` })
  photo?: string | null;

  @Field({ name: 'uEnableLocation', description: 'Whether the apps may use the location.' }) enableLocation!: boolean;

  @Field({ name: 'uEnableNotifications', description: 'Whether push notifications are on.' }) enableNotifications!: boolean;

  @Field({ name: 'uAllowAllEmails', description: 'Whether all e-mails are allowed.' }) allowAllEmails!: boolean;

  @Field({ name: 'uAllowNewsletterEmail', description: 'Whether newsletter e-mails are allowed.' }) allowNewsletterEmail!: boolean;

  @Field(() => Int, { name: 'uProfessionId', nullable: true, description: 'Profession id (professions reference list).' })
  professionId?: number | null;

  @Field(() => Int, { name: 'uSpecialtyId', nullable: true, description: 'Specialty id (specialties reference list).' })
  specialtyId?: number | null;

  @Field(() => Int, { name: 'uConditionId', nullable: true, description: 'Condition id (conditions reference list).' })
  conditionId?: number | null;

  @Field(() => String, {
    name: 'uOtherTitle',
    nullable: true,
    description: `Free-text title when none of the list fits. ${atMost('uOtherTitle')}`,
  })
  otherTitle?: string | null;

  @Field(() => String, { name: 'uOtherProfession', nullable: true, description: `Free-text profession. ${atMost('uOtherProfession')}` })
  otherProfession?: string | null;

  @Field(() => String, { name: 'uOtherSpecialty', nullable: true, description: `Free-text specialty. ${atMost('uOtherSpecialty')}` })
  otherSpecialty?: string | null;

  @Field(() => String, { name: 'uSocialNetworkAId', nullable: true, description: `Id on social network A. ${atMost('uSocialNetworkAId')}` })
  socialNetworkAId?: string | null;

  @Field(() => String, { name: 'uSocialNetworkBId', nullable: true, description: `Id on social network B. ${atMost('uSocialNetworkBId')}` })
  socialNetworkBId?: string | null;

  @Field(() => String, { name: 'uSocialNetworkCId', nullable: true, description: `Id on social network C. ${atMost('uSocialNetworkCId')}` })
  socialNetworkCId?: string | null;

  @Field(() => String, {
    name: 'uSocialNetworkCUrl',
    nullable: true,
    description: `Profile URL on social network C. ${atMost('uSocialNetworkCUrl')}`,
  })
  socialNetworkCUrl?: string | null;

  @Field(() => String, { name: 'uTimezoneId', nullable: true, description: 'IANA time zone id.' }) timezoneId?: string | null;

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

@ObjectType({ description: 'Result of updateUserProfile.', simpleResolvers: true })
export class ProfileUpdateResult {
  @Field(() => Int, { description: 'Number of fields whose stored value really changed.' }) updatedFieldCount!: number;
}
