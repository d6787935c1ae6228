// createMembershipDetails (13): the request and the stored record share one shape.
import { Field, InputType, Int, ObjectType } from 'type-graphql';

@InputType({ description: 'Membership details of a user, written with a company API key.' })
export class MembershipDetailsInput {
  @Field(() => Int, { description: 'Id of the user.' })
  userId!: number;

  @Field({ description: 'Membership id (at most 100 characters); must have the format of the identifier the key is linked to.' })
  membershipId!: string;

  @Field(() => String, { nullable: true, description: 'Free status set by the caller (at most 50 characters).' })
  status?: string | null;

  @Field(() => Date, { nullable: true, description: 'Free date set by the caller, as epoch milliseconds.' })
  statusDate?: Date | null;

  @Field(() => String, { nullable: true, description: 'Free caller data (at most 100 characters).' })
  customField1?: string | null;

  @Field(() => String, { nullable: true, description: 'Free caller data (at most 100 characters).' })
  customField2?: string | null;

  @Field(() => String, { nullable: true, description: 'Free caller data (at most 100 characters).' })
  customField3?: string | null;

  @Field(() => String, { nullable: true, description: 'Free caller data (at most 100 characters).' })
  customField4?: string | null;

  @Field(() => String, { nullable: true, description: 'Free caller data (at most 100 characters).' })
  customField5?: string | null;
}

@ObjectType({ description: "A user's stored membership details for the identifier a company API key is linked to." })
export class MembershipDetails {
  @Field(() => Int, { description: 'Id of the user.' })
  userId!: number;

  @Field({ description: 'Membership id.' })
  membershipId!: string;

  @Field(() => String, { nullable: true, description: 'Status set by the company.' })
  status!: string | null;

  @Field(() => Date, { nullable: true, description: 'Status date set by the company (epoch milliseconds).' })
  statusDate!: Date | null;

  @Field(() => String, { nullable: true, description: 'Free company data.' })
  customField1!: string | null;

  @Field(() => String, { nullable: true, description: 'Free company data.' })
  customField2!: string | null;

  @Field(() => String, { nullable: true, description: 'Free company data.' })
  customField3!: string | null;

  @Field(() => String, { nullable: true, description: 'Free company data.' })
  customField4!: string | null;

  @Field(() => String, { nullable: true, description: 'Free company data.' })
  customField5!: string | null;
}
