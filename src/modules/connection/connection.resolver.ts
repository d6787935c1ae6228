// Connections: the caller asks to connect and lists their connections; company admins list,
// approve and decline requests. Nested company and requester data come through loaders. The
// graph's edges to connections (User.connections, Company.viewerConnection) are here too: the
// module that owns the records answers for them, so the user and company modules import nothing
// of this one.
import { Arg, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { Context } from '../../context';
import { ServiceBoundary } from '../../graphql/service-boundary';
import { Company } from '../company';
import { requireCompanyAdmin } from '../company';
import { referenceViewer, requireOwnUser, UserProfile } from '../user';
import { Connection, ConnectionRequester, IdentifierValueInput, toConnection } from './connection.types';
import { checkStatusFilter, decideConnection, listCompanyConnections, requestConnection } from './connection.service';
import { checkIdentifierValues } from '../discovery';

/** A company admin (the caller) approves or declines a user's request. */
async function decide(ctx: Context, companyId: number, userId: number, decision: 'approve' | 'decline'): Promise<Connection> {
  const { user } = await ctx.auth.requireUser();
  await requireCompanyAdmin(ctx, user.uId, companyId);
  const connection = toConnection(await decideConnection(ctx.em, user.uId, companyId, userId, decision));
  ctx.loaders.viewerConnectionAt(userId).clear(companyId).prime(companyId, connection);
  return connection;
}

const STATUS_ARG = {
  nullable: true,
  description: 'Only connections in this status: requested, pending, accepted or rejected (anything else is WSInvalidParameterException).',
};

@Resolver(() => Connection)
@ServiceBoundary('WSDiscoverableServiceException')
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
    const connection = toConnection(await requestConnection(ctx.em, user.uId, companyId, values));
    ctx.loaders.viewerConnectionAt(user.uId).clear(companyId).prime(companyId, connection);
    return connection;
  }

  @Query(() => [Connection], { description: "The caller's connections, newest request first." })
  async myConnections(@Ctx() ctx: Context, @Arg('status', () => String, STATUS_ARG) status?: string | null): Promise<Connection[]> {
    const { user } = await ctx.auth.requireUser();
    return ctx.loaders.connectionsOfUser(checkStatusFilter(status) ?? null).load(user.uId);
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

@Resolver(() => UserProfile)
@ServiceBoundary('WSDiscoverableServiceException')
export class UserConnectionsResolver {
  @FieldResolver(() => [Connection], {
    description:
      "The user's connections with company walls, newest request first: the records and order of myConnections. Only the caller's own: " +
      'on any other user (a federation reference resolved with the router token) the field is refused with WSInsufficientPrivilegesException.',
  })
  async connections(
    @Root() user: UserProfile,
    @Ctx() ctx: Context,
    @Arg('status', () => String, STATUS_ARG) status?: string | null,
  ): Promise<Connection[]> {
    const uId = await requireOwnUser(ctx, user, 'connections');
    return ctx.loaders.connectionsOfUser(checkStatusFilter(status) ?? null).load(uId);
  }
}

@Resolver(() => Company)
@ServiceBoundary('WSDiscoverableServiceException')
export class CompanyViewerConnectionResolver {
  @FieldResolver(() => Connection, {
    nullable: true,
    description:
      "The caller's connection with this company, whatever its status; null when they have none (and for the router token, which has no connections).",
  })
  async viewerConnection(@Root() company: Company, @Ctx() ctx: Context): Promise<Connection | null> {
    const viewer = await referenceViewer(ctx);
    if (viewer.kind !== 'user') return null;
    return ctx.loaders.viewerConnectionAt(viewer.user.uId).load(company.companyId);
  }
}
