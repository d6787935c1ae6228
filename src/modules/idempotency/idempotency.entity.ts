// The first answer of a mutation sent with an Idempotency-Key (IETF httpapi draft), kept for
// IDEMPOTENCY_TTL_MS per caller and key: written in the mutation's own transaction, so a row
// means the write committed, and a write that failed left none. A repeat of the same request
// answers this row; a repeat of another request under the same key is refused.
import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { Opt } from '@mikro-orm/core';
import { IDEMPOTENCY_LIMITS } from '../../http/idempotency';

/** How long a key's answer is kept: the draft's suggestion, and a day of retries for a client. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

@Entity({ tableName: 'idempotency_key' })
@Index({ properties: ['expiresAt'] })
export class IdempotentAnswer {
  /** Whose key it is (idempotency.ts in src/http): keys of different callers never meet. */
  @PrimaryKey({ length: IDEMPOTENCY_LIMITS.scope }) scope!: string;

  @PrimaryKey({ length: IDEMPOTENCY_LIMITS.key }) key!: string;

  /** SHA-256 (hex) of the request: method, path and query, and its body or GraphQL document and variables. */
  @Property({ length: 64 }) fingerprint!: string;

  @Property({ type: 'smallint' }) status!: number;

  @Property({ length: 100, nullable: true }) contentType?: string | null;

  /** The answer's body as sent (every stored answer is JSON text); null for an empty one. */
  @Property({ type: 'text', nullable: true }) body?: string | null;

  @Property({ defaultRaw: 'now()' }) createdAt: Date & Opt = new Date();

  @Property() expiresAt!: Date;
}
