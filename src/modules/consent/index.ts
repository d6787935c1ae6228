// The consent module's door: its definition (read by src/modules/index.ts) and its public
// surface. Other modules import only from here.
// E-consents: the consents a company or an event asks for, and a user's answers (the entities are the directory module's).
import { defineModule } from '../../core/module';
import { ConsentResolver } from './consent.resolver';
import { createConsentLoaders } from './consent.loaders';
import { consentRoutes } from './consent.routes';
import { eConsentNode } from './consent.node';

export const consent = defineModule({
  name: 'consent',
  resolvers: [ConsentResolver],
  nodes: { EConsent: eConsentNode },
  loaders: createConsentLoaders,
  tag: 'User profile',
  routes: consentRoutes,
  seeders: () => import('./consent.seeder.js').then((m) => [m.ConsentSeeder]),
});
