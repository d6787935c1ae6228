// GraphQL views and inputs of connections.
import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { ruleText } from '../../graphql/rules';
import { IDENTIFIER_VALUE_MAX } from '../discovery';
import type { CompanyConnection } from './connection.entity';

@ObjectType({ description: "A user's connection with a company wall and where it stands.", simpleResolvers: true })
export class Connection {
  @Field(() => Int, { description: 'Id of the company.' }) companyId!: number;

  @Field(() => Int, { description: 'Id of the user.' }) userId!: number;

  @Field({
    description:
      'requested (a criterion is only partly met: profile data missing), pending (fully meets a criterion, awaiting vetting), accepted or rejected.',
  })
  status!: string;

  @Field(() => Date, { description: 'When the user last asked to connect.' }) requestedAt!: Date;

  @Field(() => Date, { nullable: true, description: 'When the request last entered manual vetting.' }) pendingAt!: Date | null;

  @Field(() => Date, { nullable: true, description: 'When the connection was accepted.' }) acceptedAt!: Date | null;

  @Field(() => Date, { nullable: true, description: 'When the request was rejected.' }) rejectedAt!: Date | null;

  @Field(() => String, {
    nullable: true,
    description: 'Why it was rejected: declined (by a company admin) or criteria (the profile no longer meets any criterion).',
  })
  rejectionReason!: string | null;

  @Field(() => Date, { description: 'When the connection last changed.' }) updatedAt!: Date;
}

export function toConnection(c: CompanyConnection): Connection {
  return {
    companyId: c.company.companyId,
    userId: c.user.uId,
    status: c.status,
    requestedAt: c.requestedAt,
    pendingAt: c.pendingAt ?? null,
    acceptedAt: c.acceptedAt ?? null,
    rejectedAt: c.rejectedAt ?? null,
    rejectionReason: c.rejectionReason ?? null,
    updatedAt: c.updatedAt,
  };
}

@ObjectType({ description: 'An identifier value a user holds.', simpleResolvers: true })
export class IdentifierValueView {
  @Field(() => Int, { description: 'Id of the identifier definition.' }) identifierId!: number;

  @Field({ description: 'The value.' }) value!: string;
}

@ObjectType({ description: 'What a company admin sees of a user asking to connect, to vet the request.', simpleResolvers: true })
export class ConnectionRequester {
  @Field(() => String, { nullable: true, description: 'First name.' }) firstName!: string | null;

  @Field(() => String, { nullable: true, description: 'Last name.' }) lastName!: string | null;

  @Field({ description: 'E-mail address.' }) email!: string;

  @Field(() => String, { nullable: true, description: 'ISO 3166-1 alpha-2 country code.' }) countryCode!: string | null;

  @Field(() => Int, { nullable: true, description: 'Profession id.' }) professionId!: number | null;

  @Field(() => Int, { nullable: true, description: 'Specialty id.' }) specialtyId!: number | null;

  @Field(() => [IdentifierValueView], {
    description: "The user's values for the identifiers the company's criteria ask for, in identifier order.",
  })
  identifiers!: IdentifierValueView[];
}

@InputType({ description: 'A value for an identifier a criterion asks for.' })
export class IdentifierValueInput {
  @Field(() => Int, { description: 'Id of the identifier definition.' }) identifierId!: number;

  @Field({ description: `The value; must have the format of formatRegex. ${ruleText({ maxLength: IDENTIFIER_VALUE_MAX })}` })
  value!: string;
}
