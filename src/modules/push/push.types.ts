// GraphQL views of Web Push: a browser's PushSubscription JSON as input (what
// PushSubscription.toJSON() gives), what registering answers, and the VAPID public key.
import { ArgsType, Field, InputType, Int, ObjectType } from 'type-graphql';
import { Rule } from '../../graphql/rules';
import { PUSH_LIMITS } from './push.entity';

/** base64url of 65 bytes (87 characters, or 88 with padding) and of 16 bytes (22, or 24). */
const P256DH = /^[A-Za-z0-9_-]{87}=?$/;
const AUTH = /^[A-Za-z0-9_-]{22}(==)?$/;

const ENDPOINT_RULE = { required: true, maxLength: PUSH_LIMITS.endpoint };

@InputType('PushSubscriptionKeysInput', { description: "The subscription's keys, as the browser gives them (base64url)." })
export class PushSubscriptionKeysInput {
  @Field(() => String, { nullable: true, description: "The browser's P-256 public key: an uncompressed point (65 bytes)." })
  @Rule({ required: true, pattern: P256DH, format: 'a base64url uncompressed P-256 public key (65 bytes)', field: 'keys.p256dh' })
  p256dh?: string | null;

  @Field(() => String, { nullable: true, description: "The browser's authentication secret (16 bytes)." })
  @Rule({ required: true, pattern: AUTH, format: 'a base64url authentication secret (16 bytes)', field: 'keys.auth' })
  auth?: string | null;
}

@InputType('PushSubscriptionInput', {
  description: "A browser's Web Push subscription: the JSON of PushSubscription.toJSON() (expirationTime is accepted and ignored).",
})
export class PushSubscriptionInput {
  @Field(() => String, { nullable: true, description: "The push service's https URL for this browser." })
  @Rule(ENDPOINT_RULE)
  endpoint?: string | null;

  @Field(() => Number, { nullable: true, description: 'When the subscription expires (epoch milliseconds), as the browser says; ignored.' })
  expirationTime?: number | null;

  @Field(() => PushSubscriptionKeysInput, { nullable: true, description: 'The keys messages are encrypted to.' })
  @Rule({ required: true })
  keys?: PushSubscriptionKeysInput | null;
}

@ArgsType()
export class UnsubscribePushArgs {
  @Field(() => String, { nullable: true, description: 'The endpoint of the subscription to remove.' })
  @Rule(ENDPOINT_RULE)
  endpoint?: string | null;
}

@ObjectType('PushSubscriptionRegistration', { description: 'A Web Push subscription registered for the caller.', simpleResolvers: true })
export class PushSubscriptionRegistration {
  @Field({ description: 'The endpoint, as stored (the URL serialised).' }) endpoint!: string;

  @Field({ description: 'When this registration was stored (epoch milliseconds, UTC).' }) registered!: Date;
}

@ObjectType('PushUnsubscribeResult', { description: 'What removing a Web Push subscription changed.', simpleResolvers: true })
export class PushUnsubscribeResult {
  @Field(() => Int, { description: "1 when the caller's subscription with that endpoint was removed, 0 when there was none." })
  removed!: number;
}

@ObjectType('VapidPublicKey', {
  description: 'The key a browser passes as applicationServerKey to pushManager.subscribe().',
  simpleResolvers: true,
})
export class VapidPublicKey {
  @Field({ description: 'The VAPID public key: base64url of the uncompressed P-256 point (65 bytes).' }) publicKey!: string;
}
