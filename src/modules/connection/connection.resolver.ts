// Connections: the caller asks to connect and lists their connections; company admins list,
// approve and decline requests. Nested company and requester data come through loaders.
import { Arg, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root, UseMiddleware } from 'type-graphql';
import type { Context } from '../../context';
import { ServiceBoundary } from '../../graphql/service-boundary';
import { Company } from '../company';
import { requireCompanyAdmin } from '../company';
import { Connection, ConnectionRequester, IdentifierValueInput, toConnection } from './connection.types';
import { checkStatusFilter, decideConnection, listCompanyConnections, listUserConnections, requestConnection } from './connection.service';
import { checkIdentifierValues } from '../discovery';

/** A company admin (the caller) approves or declines a user's request. */
async function decide(ctx: Context, companyId: number, userId: number, decision: 'approve' | 'decline'): Promise<Connection> {
  const { user } = await ctx.auth.requireUser();
  await requireCompanyAdmin(ctx, user.uId, companyId);
  return toConnection(await decideConnection(ctx.em, user.uId, companyId, userId, decision));
}

@Resolver(() => Connection)
@UseMiddleware(ServiceBoundary('WSDiscoverableServiceException'))
export class ConnectionResolver {
  @Mutation(() => Connection, {
    description:
      'The caller asks to connect to a company. Fully meeting a criterion: pending (or accepted where the company does not vet); partly: requested; none: refused with WSInvalidParameterException.',
  })
  async requestConnection(
    @Ctx() ctx: Context,
    @Arg('companyId', () => Int, { description: 'Id of the company.' }) companyId: number,
    @Arg('identifiers', () => [IdentifierValueInput], {
      nullable: true,
      description: "Values for identifiers the company's criteria ask for; stored as the caller's own.",
    })
    identifiers?: IdentifierValueInput[] | null,
  ): Promise<Connection> {
    const { user } = await ctx.auth.requireUser();
    const values = checkIdentifierValues(identifiers ?? []);
    const connection = await requestConnection(ctx.em, user.uId, companyId, values);
    return toConnection(connection);
  }

  @Query(() => [Connection], { description: "The caller's connections, newest request first." })
  async myConnections(
    @Ctx() ctx: Context,
    @Arg('status', () => String, { nullable: true, description: 'Only connections in this status.' }) status?: string | null,
  ): Promise<Connection[]> {
    const { user } = await ctx.auth.requireUser();
    return (await listUserConnections(ctx.em, user.uId, checkStatusFilter(status))).map(toConnection);
  }

  @Query(() => [Connection], { description: 'Connections of a company, oldest request first (company admins).' })
  async companyConnections(
    @Ctx() ctx: Context,
    @Arg('companyId', () => Int, { description: 'Id of the company.' }) companyId: number,
    @Arg('status', () => String, { nullable: true, description: 'Only connections in this status, e.g. pending.' }) status?: string | null,
  ): Promise<Connection[]> {
    const { user } = await ctx.auth.requireUser();
    const filter = checkStatusFilter(status);
    await requireCompanyAdmin(ctx, user.uId, companyId);
    return (await listCompanyConnections(ctx.em, companyId, filter)).map(toConnection);
  }

  @Mutation(() => Connection, { description: 'A company admin accepts a pending request.' })
  async approveConnection(
    @Ctx() ctx: Context,
    @Arg('companyId', () => Int, { description: 'Id of the company.' }) companyId: number,
    @Arg('userId', () => Int, { description: 'Id of the requesting user.' }) userId: number,
  ): Promise<Connection> {
    return decide(ctx, companyId, userId, 'approve');
  }

  @Mutation(() => Connection, { description: 'A company admin rejects a requested or pending request.' })
  async declineConnection(
    @Ctx() ctx: Context,
    @Arg('companyId', () => Int, { description: 'Id of the company.' }) companyId: number,
    @Arg('userId', () => Int, { description: 'Id of the requesting user.' }) userId: number,
  ): Promise<Connection> {
    return decide(ctx, companyId, userId, 'decline');
  }

  @FieldResolver(() => Company, { nullable: true, description: 'The company.' })
  company(@Root() connection: Connection, @Ctx() ctx: Context): Promise<Company | null> {
    return ctx.loaders.companyById.load(connection.companyId);
  }

  @FieldResolver(() => ConnectionRequester, {
    nullable: true,
    description: 'The requesting user, with the identifier values the criteria ask for.',
  })
  async requester(@Root() connection: Connection, @Ctx() ctx: Context): Promise<ConnectionRequester | null> {
    const [user, criteria, values] = await Promise.all([
      ctx.loaders.userById.load(connection.userId),
      ctx.loaders.criteriaByCompany.load(connection.companyId),
      ctx.loaders.identifierValuesByUser.load(connection.userId),
    ]);
    if (!user) return null;
    const asked = new Set(criteria.flatMap((c) => c.identifiers));
    return {
      firstName: user.firstName ?? null,
      lastName: user.lastName ?? null,
      email: user.email,
      countryCode: user.countryCode ?? null,
      professionId: user.professionId ?? null,
      specialtyId: user.specialtyId ?? null,
      identifiers: values
        .filter((v) => asked.has(v.identifier.identifierId))
        .map((v) => ({ identifierId: v.identifier.identifierId, value: v.value })),
    };
  }
}
