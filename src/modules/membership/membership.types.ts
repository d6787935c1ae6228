// createMembershipDetails (13): the request and the stored record share one shape. Each field's
// own rules sit beside it; the format of the membershipId (the identifier's regular expression)
// needs the identifier the key is linked to, so the service checks it.
import { MEMBERSHIP_LIMITS } from '../discovery';
import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { Rule } from '../../graphql/rules';

/** The spec's Limits for membership details live with the columns that store them (identifier.entity.ts). */
export { MEMBERSHIP_LIMITS };

@InputType({ description: 'Membership details of a user, written with a company API key.' })
export class MembershipDetailsInput {
  @Field(() => Int, { description: 'Id of the user.' }) @Rule({ min: 1 }) userId!: number;

  @Field({ description: 'Membership id; must have the format of the identifier the key is linked to.' })
  @Rule({ required: true, maxLength: MEMBERSHIP_LIMITS.membershipId })
  membershipId!: string;

  @Field(() => String, { nullable: true, description: 'Free status set by the caller.' })
  @Rule({ maxLength: MEMBERSHIP_LIMITS.status })
  status?: string | null;

  @Field(() => Date, { nullable: true, description: 'Free date set by the caller, as epoch milliseconds.' }) statusDate?: Date | null;

  @Field(() => String, { nullable: true, description: 'Free caller data.' })
  @Rule({ maxLength: MEMBERSHIP_LIMITS.customField1 })
  customField1?: string | null;

  @Field(() => String, { nullable: true, description: 'Free caller data.' })
  @Rule({ maxLength: MEMBERSHIP_LIMITS.customField2 })
  customField2?: string | null;

  @Field(() => String, { nullable: true, description: 'Free caller data.' })
  @Rule({ maxLength: MEMBERSHIP_LIMITS.customField3 })
  customField3?: string | null;

  @Field(() => String, { nullable: true, description: 'Free caller data.' })
  @Rule({ maxLength: MEMBERSHIP_LIMITS.customField4 })
  customField4?: string | null;

  @Field(() => String, { nullable: true, description: 'Free caller data.' })
  @Rule({ maxLength: MEMBERSHIP_LIMITS.customField5 })
  customField5?: string | null;
}

@ObjectType({ description: "A user's stored membership details for the identifier a company API key is linked to.", simpleResolvers: true })
export class MembershipDetails {
  @Field(() => Int, { description: 'Id of the user.' }) userId!: number;

  @Field({ description: 'Membership id.' }) membershipId!: string;

  @Field(() => String, { nullable: true, description: 'Status set by the company.' }) status!: string | null;

  @Field(() => Date, { nullable: true, description: 'Status date set by the company (epoch milliseconds).' }) statusDate!: Date | null;

  @Field(() => String, { nullable: true, description: 'Free company data.' }) customField1!: string | null;

  @Field(() => String, { nullable: true, description: 'Free company data.' }) customField2!: string | null;

  @Field(() => String, { nullable: true, description: 'Free company data.' }) customField3!: string | null;

  @Field(() => String, { nullable: true, description: 'Free company data.' }) customField4!: string | null;

  @Field(() => String, { nullable: true, description: 'Free company data.' }) customField5!: string | null;
}
