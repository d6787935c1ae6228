// The event module's door: its definition (read by src/modules/index.ts) and its public
// surface. Other modules import only from here.
// Events and invitations, with their zoned start and end times.
import { defineModule } from '../../core/module';
import { NODE_KEY, nodeFromReference } from '../../graphql/node';
import { Event, EventAttendee } from './event.entity';
import { EventResolver, resolveEventReference } from './event.resolver';
import { createEventLoaders } from './event.loaders';
import { CompanyEventsResolver, EventCompanyResolver, UserEventCompanyResolver, UserEventsResolver } from './event.graph';
import { eventRoutes } from './event.routes';
import { userEventNode } from './user-event.node';

export const event = defineModule({
  name: 'event',
  entities: [Event, EventAttendee],
  resolvers: [EventResolver, UserEventsResolver, CompanyEventsResolver, EventCompanyResolver, UserEventCompanyResolver],
  references: { Event: resolveEventReference },
  nodes: { Event: nodeFromReference('eventUUID', NODE_KEY.uuid, resolveEventReference), UserEvent: userEventNode },
  loaders: createEventLoaders,
  tag: 'Events',
  routes: eventRoutes,
  seeders: () => import('./event.seeder.js').then((m) => [m.EventSeeder]),
});

export { eventForNotifications, managesNotifications, NOTIFICATION_MANAGER_ROLES } from './event.access';
export { Event, EventAttendee } from './event.entity';
export { eventNotCancelled, invitedNotDeclined } from './event.queries';
