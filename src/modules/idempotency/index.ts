// The idempotency module's door: its definition (read by src/modules/index.ts) and the keys'
// protocol, which the REST executor and the GraphQL plugin run for a mutation sent with an
// Idempotency-Key (src/http/idempotency.ts; docs/api/README.md, "Retrying a write").
import { defineModule } from '../../core/module';
import { IdempotentAnswer } from './idempotency.entity';
import { idempotencyPurge } from './idempotency.purge';

export const idempotency = defineModule({
  name: 'idempotency',
  entities: [IdempotentAnswer],
  queues: [idempotencyPurge],
});

export { IDEMPOTENCY_LIMITS, IDEMPOTENCY_TTL_MS } from './idempotency.entity';
export { KEY_HEADER, openKey, type KeptAnswer, type KeyedRequest, type OpenedKey, type PendingKey } from './idempotency.store';
export { purgeExpiredKeys } from './idempotency.purge';
