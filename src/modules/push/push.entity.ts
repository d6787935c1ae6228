// A browser's Web Push subscription (RFC 8030, keys for RFC 8291): where the push service takes
// messages for one browser profile, and the keys its payloads are encrypted to. One row per
// endpoint: a browser that registers its endpoint again (the same user or another who signs in on
// it) updates that row.
import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import type { Opt, Rel } from '@mikro-orm/core';
import { User } from '../user';

export const PUSH_LIMITS = {
  /** Characters of an endpoint URL (ASCII once parsed: a URL's serialisation percent-encodes the rest). */
  endpoint: 1024,
  /** Subscriptions one user keeps: registering another drops their least recently registered. */
  perUser: 10,
};

@Entity({ tableName: 'push_subscription' })
@Index({ properties: ['user'] })
export class PushSubscription {
  @PrimaryKey() id!: number;

  @ManyToOne(() => User, { fieldName: 'user_id', deleteRule: 'cascade' }) user!: Rel<User>;

  @Property({ length: PUSH_LIMITS.endpoint }) @Unique() endpoint!: string;

  /** The browser's P-256 public key, base64url (65 bytes, uncompressed). */
  @Property({ length: 100 }) p256dh!: string;

  /** The browser's authentication secret, base64url (16 bytes). */
  @Property({ length: 30 }) auth!: string;

  @Property({ defaultRaw: 'now()' }) createdAt: Date & Opt = new Date();

  /** When the endpoint was last registered (with these keys, by this user). */
  @Property({ defaultRaw: 'now()' }) updatedAt: Date & Opt = new Date();
}
