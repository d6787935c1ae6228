import { route, type DeclaredRoute } from '../../rest/route';
import { doc } from '../../rest/body-selection';

const SERVICE_ERRORS = ['WSInvalidAuthTokenException', 'WSNotificationServiceException'];

export const pushRoutes: DeclaredRoute[] = [
  route({
    at: 'GET /rest/user/push-subscriptions/vapid-public-key',
    credential: 'user',
    document: doc`query getVapidPublicKey { vapidPublicKey { publicKey } }`,
    description:
      'Answers {publicKey}: base64url of the uncompressed P-256 point (65 bytes). It changes only when the operator replaces the key pair, ' +
      'which invalidates every stored subscription: a client subscribes again with the new key.',
    errors: SERVICE_ERRORS,
  }),
  route({
    at: 'POST /rest/user/push-subscriptions',
    credential: 'user',
    document: doc`mutation subscribePushNotifications($subscription: PushSubscriptionInput!) {
      subscribePush(subscription: $subscription) { endpoint registered }
    }`,
    description:
      'The body is the JSON of PushSubscription.toJSON(): endpoint (https), keys.p256dh and keys.auth (base64url). registered is epoch milliseconds.',
    status: 201,
    errors: ['WSInvalidParameterException', 'WSFieldLengthException', ...SERVICE_ERRORS],
  }),
  route({
    at: 'DELETE /rest/user/push-subscriptions',
    credential: 'user',
    document: doc`mutation unsubscribePushNotifications($endpoint: String) { unsubscribePush(endpoint: $endpoint) { removed } }`,
    summary: "Removes the caller's Web Push subscription with this endpoint.",
    description: "Also 204 when the caller has no subscription with this endpoint (another user's is left alone).",
    status: 204,
    errors: ['WSInvalidParameterException', 'WSFieldLengthException', ...SERVICE_ERRORS],
  }),
];
