// The notification module's door: its definition (read by src/modules/index.ts) and its public
// surface. Other modules import only from here.
// Notifications: sending now or on a schedule to teams, events and job audiences, the sent and scheduled lists, e-mail, and the scheduler
// that delivers what falls due.
import { defineModule } from '../../core/module';
import { ScheduledNotification, SentNotification, NotificationInbox, AssetLevelPreference } from './notification.entity';
import { NotificationResolver } from './notification.resolver';
import { notificationRoutes } from './notification.routes';
import { notifyEntryPublished } from './notification.library';
import { scheduledSends } from './notification.scheduler';

export const notification = defineModule({
  name: 'notification',
  entities: [ScheduledNotification, SentNotification, NotificationInbox, AssetLevelPreference],
  resolvers: [NotificationResolver],
  tag: 'Notifications',
  routes: notificationRoutes,
  seeders: () => import('./notification.seeder.js').then((m) => [m.NotificationSeeder]),
  hooks: { smartEntryPublished: notifyEntryPublished },
  jobs: [scheduledSends],
});

export { createMailer, type Mailer } from './notification.mailer';
