// The notification module's door: its definition (read by src/modules/index.ts) and its public
// surface. Other modules import only from here.
// Notifications: sending now or on a schedule to teams, events and job audiences, the sent and scheduled lists, e-mail, the scheduler
// that delivers what falls due, and each user's inbox with its read state.
import { defineModule } from '../../core/module';
import { ScheduledNotification, SentNotification, NotificationInbox, NotificationEmail, AssetLevelPreference } from './notification.entity';
import { NotificationResolver } from './notification.resolver';
import { notificationRoutes } from './notification.routes';
import { InboxResolver, UserInboxResolver } from './inbox.resolver';
import { createInboxLoaders } from './inbox.loaders';
import { inboxRoutes } from './inbox.routes';
import { inboxNode } from './inbox.node';
import { scheduledNotificationNode, sentNotificationNode } from './sent.node';
import { announceDelivery, InboxLiveResolver } from './inbox.live';
import { notifyEntryPublished } from './notification.library';
import { notificationEmails, scheduledSends, scheduledSweep } from './notification.scheduler';
import { createMailer } from './notification.mailer';

export const notification = defineModule({
  name: 'notification',
  entities: [ScheduledNotification, SentNotification, NotificationInbox, NotificationEmail, AssetLevelPreference],
  resolvers: [NotificationResolver, InboxResolver, UserInboxResolver, InboxLiveResolver],
  loaders: createInboxLoaders,
  nodes: { InboxNotification: inboxNode, SentNotification: sentNotificationNode, ScheduledNotification: scheduledNotificationNode },
  tag: 'Notifications',
  routes: [...notificationRoutes, ...inboxRoutes],
  seeders: () => import('./notification.seeder.js').then((m) => [m.NotificationSeeder]),
  hooks: { smartEntryPublished: notifyEntryPublished, notificationDelivered: announceDelivery },
  queues: [scheduledSends, notificationEmails, scheduledSweep],
  services: async ({ config, logger }) => {
    const mailer = createMailer(config, logger);
    return { provides: { mailer }, close: () => mailer.close() };
  },
});

export { createMailer, type Mailer } from './notification.mailer';
export { readDeliveredItems } from './inbox.reads';
