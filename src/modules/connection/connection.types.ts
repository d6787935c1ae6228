// GraphQL views and inputs of connections.
import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { ownFieldProperties } from '../../graphql/graph-fields';
import { Node } from '../../graphql/node';
import { ruleText } from '../../graphql/rules';
import { IDENTIFIER_VALUE_MAX } from '../discovery';
import type { CompanyConnection } from './connection.entity';

@ObjectType({ implements: Node, description: "A user's connection with a company wall and where it stands.", simpleResolvers: true })
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

/**
 * The view's own fields that a connection holds under the same name (every one but the keys of its
 * company and user; the resolvers add the rest), read from the type's metadata once, at first use:
 * a field added to the entity and the view is carried without being named again.
 */
let copied: readonly (keyof Connection)[] | undefined;
const copiedFields = () =>
  (copied ??= (ownFieldProperties(Connection) as (keyof Connection)[]).filter((prop) => prop !== 'companyId' && prop !== 'userId'));

/**
 * A connection (a managed entity, or its row as a read model maps it) as its view: the keys of its
 * company and user, and every other field copied from the property of its name (null when unset).
 */
export function connectionView(c: object, companyId: number, userId: number): Connection {
  const source = c as Record<string, unknown>;
  const view: Record<string, unknown> = { companyId, userId };
  for (const prop of copiedFields()) view[prop] = source[prop] ?? null;
  return view as unknown as Connection;
}

export const toConnection = (c: CompanyConnection): Connection => connectionView(c, c.company.companyId, c.user.uId);

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
