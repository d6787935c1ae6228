// Credentials other than passwords: service auth tokens (x-service-authtoken) and system
// tokens (x-api-key). Only SHA-256 hashes are stored.
import { Entity, PrimaryKey, Property, ManyToOne, Index } from '@mikro-orm/decorators/legacy';
import type { Opt, Rel } from '@mikro-orm/core';
import { PrimaryKeyProp } from '@mikro-orm/core';
import { User } from '../user';
import { TokenFamily } from './oauth.entity';

@Entity({ tableName: 'service_auth_token' })
export class ServiceAuthToken {
  [PrimaryKeyProp]?: 'tokenHash';

  /** SHA-256 (hex) of the opaque token. */
  @PrimaryKey({ length: 64 }) tokenHash!: string;

  @ManyToOne(() => User, { fieldName: 'user_id', deleteRule: 'cascade' }) @Index() user!: Rel<User>;

  /** Sliding: pushed forward on use. */
  @Property() expiresAt!: Date;

  @Property({ type: 'datetime', nullable: true }) revokedAt?: Date | null;

  /** The OAuth token family whose access token logged in; revoking the family revokes this too. */
  @ManyToOne(() => TokenFamily, { fieldName: 'family_id', nullable: true, deleteRule: 'set null' })
  @Index()
  family?: Rel<TokenFamily> | null;

  @Property({ defaultRaw: 'now()' }) createdAt: Date & Opt = new Date();
}

@Entity({ tableName: 'system_token' })
export class SystemToken {
  @PrimaryKey() id!: number;

  @Property({ length: 64, unique: true }) tokenHash!: string;

  @Property({ length: 100 }) name!: string;

  /** e.g. ['ingestion'] */
  @Property({ type: 'text[]' }) scopes!: string[];

  @Property({ type: 'datetime', nullable: true }) revokedAt?: Date | null;

  @Property({ defaultRaw: 'now()' }) createdAt: Date & Opt = new Date();
}
