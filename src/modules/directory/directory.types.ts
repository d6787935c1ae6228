// A contact as another member of the directory sees it: fields the directory does not show,
// or that the directory type hides from this viewer, are null (see contact-visibility.ts).
import { Field, Int, ObjectType } from 'type-graphql';
import { Node } from '../../graphql/node';

@ObjectType({
  implements: Node,
  description: 'A contact record of a smart directory, as the caller may see it; hidden fields are null.',
  simpleResolvers: true,
})
export class DirectoryContact {
  @Field(() => Int, { description: 'Id of the contact record.' }) contactId!: number;

  @Field(() => Int, { description: 'Id of the user the record belongs to.' }) uId!: number;

  @Field({ description: 'Name in the directory\'s order: "First Last" (FL) or "Last, First" (LF).' }) displayName!: string;

  @Field(() => String, { nullable: true, description: 'First name.' }) firstName!: string | null;

  @Field(() => String, { nullable: true, description: 'Last name.' }) lastName!: string | null;

  @Field(() => String, { nullable: true, description: 'E-mail, when the directory shows it.' }) email!: string | null;

  @Field(() => String, { nullable: true, description: 'Mobile, when the directory shows it.' }) mobile!: string | null;

  @Field(() => String, { nullable: true, description: 'Phone, when the directory shows it.' }) phone!: string | null;

  @Field(() => String, { nullable: true, description: 'Job title, when the directory shows it.' }) jobTitle!: string | null;

  @Field(() => String, { nullable: true, description: 'Department, when the directory shows it.' }) department!: string | null;

  @Field(() => String, { nullable: true, description: 'Division, when the directory shows it.' }) division!: string | null;

  @Field(() => String, { nullable: true, description: 'Date of birth (YYYY-MM-DD), when the directory shows it.' })
  dateOfBirth!: string | null;

  /** Whether addresses resolve for this viewer (the directory shows them and the type allows it). */
  addressesVisible!: boolean;
}
