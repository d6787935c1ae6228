// The user module's door: its definition (read by src/modules/index.ts) and its public
// surface. Other modules import only from here.
// Users and their profile: reading and updating it (other modules react through the profileChanged hook), titles and genders.
import { defineModule } from '../../core/module';
import { NODE_KEY, nodeFromReference } from '../../graphql/node';
import { User } from './user.entity';
import { Title, Gender } from './user-reference.entity';
import { UserProfileResolver, UserReferenceDataResolver, resolveUserReference } from './user.resolver';
import { createUserLoaders } from './user.loaders';
import { userRoutes } from './user.routes';
import { referenceViewer } from './user.reference';

export const user = defineModule({
  name: 'user',
  entities: [User, Title, Gender],
  resolvers: [UserProfileResolver, UserReferenceDataResolver],
  references: { User: resolveUserReference },
  nodes: { User: nodeFromReference('uId', NODE_KEY.int, resolveUserReference) },
  loaders: createUserLoaders,
  tag: 'User profile',
  routes: userRoutes,
  seeders: () => import('./user.seeder.js').then((m) => [m.UserProfileSeeder]),
  isRouter: async (ctx) => (await referenceViewer(ctx)).kind === 'router',
});

export { UserProfile } from './profile.types';
export { User } from './user.entity';
export { userContacts, userRowById } from './user.queries';
export { referenceViewer, requireOwnUser } from './user.reference';
