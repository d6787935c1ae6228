// The idempotency module's door: its definition (read by src/modules/index.ts) and the keys'
// protocol, which the REST executor and the GraphQL plugin run for a mutation sent with an
// Idempotency-Key (src/http/idempotency.ts; docs/api/README.md, "Retrying a write").
import { defineModule } from '../../core/module';
import { IdempotentAnswer } from './idempotency.entity';
import { idempotencyPurge } from './idempotency.purge';
import { IDEMPOTENCY_KEYS } from './idempotency.store';

export const idempotency = defineModule({
  name: 'idempotency',
  entities: [IdempotentAnswer],
  queues: [idempotencyPurge],
  services: async () => ({ provides: { idempotency: IDEMPOTENCY_KEYS }, close: () => undefined }),
});

export { IDEMPOTENCY_TTL_MS } from './idempotency.entity';
export { purgeExpiredKeys } from './idempotency.purge';
