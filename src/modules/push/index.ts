// The push module's door: its definition (read by src/modules/index.ts).
// Web Push (RFC 8030, RFC 8291 encryption, VAPID): users register their browsers' subscriptions,
// and each notification delivered to their inbox is pushed to them through the job queue.
import { defineModule } from '../../core/module';
import { PushSubscription } from './push.entity';
import { PushResolver } from './push.resolver';
import { pushRoutes } from './push.routes';
import { enqueuePushes, pushQueue } from './push.delivery';

export const push = defineModule({
  name: 'push',
  entities: [PushSubscription],
  resolvers: [PushResolver],
  tag: 'Notifications',
  routes: pushRoutes,
  hooks: { notificationDelivered: enqueuePushes },
  queues: [pushQueue()],
});
