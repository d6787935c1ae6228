// The connection module's door: its definition (read by src/modules/index.ts) and its public
// surface. Other modules import only from here.
// Connections between users and companies: requests matched against the company's criteria, vetting by company admins, and the re-check
// when a profile changes.
import { defineModule } from '../../core/module';
import { CompanyConnection } from './connection.entity';
import { CompanyViewerConnectionResolver, ConnectionResolver, UserConnectionsResolver } from './connection.resolver';
import { createConnectionLoaders } from './connection.loaders';
import { connectionRoutes } from './connection.routes';
import { connectionNode } from './connection.node';
import { recheckAfterProfileChange } from './connection.hooks';

export const connection = defineModule({
  name: 'connection',
  entities: [CompanyConnection],
  resolvers: [ConnectionResolver, UserConnectionsResolver, CompanyViewerConnectionResolver],
  nodes: { Connection: connectionNode },
  loaders: createConnectionLoaders,
  tag: 'Connections',
  routes: connectionRoutes,
  hooks: { profileChanged: recheckAfterProfileChange },
});

export { CompanyConnection } from './connection.entity';
export { acceptedConnectionUserIds, hasAcceptedConnection, recheckOpenConnections } from './connection.service';
export { acceptedConnectionExists, connectionExists } from './connection.queries';
