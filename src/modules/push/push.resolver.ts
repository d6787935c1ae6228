// Web Push for the caller: the VAPID public key to subscribe with, and registering and removing
// the browser's subscription (REST: /rest/user/push-subscriptions). Only the caller's own rows.
import { Arg, Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { Context } from '../../context';
import { ServiceBoundary } from '../../graphql/service-boundary';
import { vapidKeys } from './push.keys';
import { checkKeys, parseEndpoint, subscribe, unsubscribe } from './push.service';
import {
  PushSubscriptionInput,
  PushSubscriptionRegistration,
  PushUnsubscribeResult,
  UnsubscribePushArgs,
  VapidPublicKey,
} from './push.types';

@Resolver()
@ServiceBoundary('WSNotificationServiceException')
export class PushResolver {
  @Query(() => VapidPublicKey, {
    description: "The service's VAPID public key (getVapidPublicKey): pass it as applicationServerKey to pushManager.subscribe().",
  })
  async vapidPublicKey(@Ctx() ctx: Context): Promise<VapidPublicKey> {
    await ctx.auth.requireUser();
    return { publicKey: vapidKeys(ctx.config).publicKey };
  }

  @Mutation(() => PushSubscriptionRegistration, {
    description:
      "Registers a browser's Web Push subscription for the caller (subscribePushNotifications): each notification delivered to the caller's inbox " +
      'is then pushed to it. The same endpoint again updates its keys; an endpoint registered by another user moves to the caller. ' +
      'A user keeps their 10 most recently registered subscriptions.',
  })
  async subscribePush(
    @Ctx() ctx: Context,
    @Arg('subscription', () => PushSubscriptionInput, { description: 'The JSON of PushSubscription.toJSON().' })
    subscription: PushSubscriptionInput,
  ): Promise<PushSubscriptionRegistration> {
    const { user } = await ctx.auth.requireUser();
    const endpoint = parseEndpoint(subscription.endpoint!, ctx.config.nodeEnv === 'test');
    const keys = checkKeys({ p256dh: subscription.keys!.p256dh!, auth: subscription.keys!.auth! });
    return subscribe(ctx.em, user.uId, endpoint, keys, ctx.services.clock.now());
  }

  @Mutation(() => PushUnsubscribeResult, {
    description:
      "Removes the caller's Web Push subscription with this endpoint (unsubscribePushNotifications); removed is 0 when the caller has none " +
      "(another user's subscription is left alone).",
  })
  async unsubscribePush(@Ctx() ctx: Context, @Args(() => UnsubscribePushArgs) args: UnsubscribePushArgs): Promise<PushUnsubscribeResult> {
    const { user } = await ctx.auth.requireUser();
    const endpoint = parseEndpoint(args.endpoint!, ctx.config.nodeEnv === 'test');
    return { removed: await unsubscribe(ctx.em, user.uId, endpoint) };
  }
}
