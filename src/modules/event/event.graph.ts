// The event edges of the graph (docs/development.md; issue 19): User.events (the caller's
// invitations, as userEvents lists them but across walls), Company.events (a wall's events the
// caller may see, as Query.event decides) and the company of an event (the company module's
// visibleCompany rule). Every edge reads through the request's loaders: a field under many parents
// costs one statement per distinct argument set, whatever the number of parents.
import { Args, ArgsType, Ctx, Field, FieldResolver, Info, Int, Resolver, Root } from 'type-graphql';
import type { GraphQLResolveInfo } from 'graphql';
import type { Context } from '../../context';
import { ServiceBoundary } from '../../graphql/service-boundary';
import { invalidParameter } from '../../core/errors';
import { asksTotal, ConnectionArgs, connectionType, pageOf, pageRequest, type ConnectionPage } from '../../graphql/connection';
import { Company, visibleCompany } from '../company';
import { UserProfile, referenceViewer, requireOwnUser, type User } from '../user';
import { EventView, UserEventView } from './event.types';
import { COMPANY_EVENTS_LIST, EVENT_ORDER, USER_EVENTS_LIST } from './event.reads';
import { companyEventPagesKey, userEventPagesKey } from './event.loaders';

const UserEventConnection = connectionType(UserEventView, 'UserEvent', 'invitation');
const CompanyEventConnection = connectionType(EventView, 'CompanyEvent', 'event');

/** The arguments of User.events: the page, and the wall to keep to. */
@ArgsType()
export class UserEventsArgs extends ConnectionArgs {
  @Field(() => Int, { nullable: true, description: 'Only invitations to events on the wall of this company; every wall when omitted.' })
  companyId?: number | null;
}

@Resolver(() => UserProfile)
@ServiceBoundary('WSEventServiceException')
export class UserEventsResolver {
  @FieldResolver(() => UserEventConnection, {
    description:
      "The user's invitations to active events, by start time then id: the records userEvents lists, across every company wall " +
      "unless companyId is given. Only the caller's own: on any other User (a federation reference) it is refused with " +
      'WSInsufficientPrivilegesException.',
  })
  async events(
    @Root() user: User,
    @Ctx() ctx: Context,
    @Args(() => UserEventsArgs) args: UserEventsArgs,
    @Info() info: GraphQLResolveInfo,
  ): Promise<ConnectionPage<UserEventView>> {
    const userId = await requireOwnUser(ctx, user, 'invitations');
    const request = pageRequest(USER_EVENTS_LIST, EVENT_ORDER, args);
    const companyId = args.companyId ?? null;
    if (companyId !== null && companyId < 1) throw invalidParameter('companyId', 'companyId must be a positive company id.');
    return ctx.loaders.userEventPages(userEventPagesKey(companyId, request)).load({ parent: userId, counted: asksTotal(info) });
  }
}

@Resolver(() => Company)
@ServiceBoundary('WSEventServiceException')
export class CompanyEventsResolver {
  @FieldResolver(() => CompanyEventConnection, {
    description:
      "Active events on the company's wall that the caller may see, by start time then id: every one when the caller manages " +
      "the company's notifications (ADMIN or PUSH_NOTIFICATION), else those they are invited to (cancelled events are read " +
      'through Query.event). Empty for the federation router, which sees no event.',
  })
  async events(
    @Root() company: Company,
    @Ctx() ctx: Context,
    @Args(() => ConnectionArgs) args: ConnectionArgs,
    @Info() info: GraphQLResolveInfo,
  ): Promise<ConnectionPage<EventView>> {
    const request = pageRequest(COMPANY_EVENTS_LIST, EVENT_ORDER, args);
    const viewer = await referenceViewer(ctx);
    if (viewer.kind !== 'user') return pageOf<EventView>([], request, 0, () => '');
    return ctx.loaders
      .companyEventPages(companyEventPagesKey(viewer.user.uId, request))
      .load({ parent: company.companyId, counted: asksTotal(info) });
  }
}

const COMPANY_EDGE =
  'The company whose wall holds the event, when the caller may see it as a Company (active and not a hidden wall, ' +
  'or tied to the caller by a connection of any status or the ADMIN role); null otherwise.';

@Resolver(() => EventView)
@ServiceBoundary('WSEventServiceException')
export class EventCompanyResolver {
  @FieldResolver(() => Company, { nullable: true, description: COMPANY_EDGE })
  company(@Root() event: EventView, @Ctx() ctx: Context): Promise<Company | null> {
    return visibleCompany(ctx, event.cId);
  }
}

@Resolver(() => UserEventView)
@ServiceBoundary('WSEventServiceException')
export class UserEventCompanyResolver {
  @FieldResolver(() => Company, { nullable: true, description: COMPANY_EDGE })
  company(@Root() event: UserEventView, @Ctx() ctx: Context): Promise<Company | null> {
    return visibleCompany(ctx, event.cId);
  }
}
