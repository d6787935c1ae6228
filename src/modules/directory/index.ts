// The directory module's door: its definition (read by src/modules/index.ts) and its public
// surface. Other modules import only from here.
// Smart directories: a team's contact records, their addresses (synced from profiles), the consents that gate them, and who sees which
// contacts.
import { defineModule } from '../../core/module';
import { NODE_KEY, nodeFromReference } from '../../graphql/node';
import { SmartDirectory, SmartDirectoryField, ContactRecord, ContactAddress } from './directory.entity';
import { ConsentDefinition, UserConsent } from './consent.entity';
import {
  CompanyDirectoriesResolver,
  DirectoryContactResolver,
  resolveSmartDirectoryReference,
  SmartDirectoryResolver,
  UserDirectoriesResolver,
} from './directory.resolver';
import { createDirectoryLoaders } from './directory.loaders';
import { directoryRoutes } from './directory.routes';
import { directoryContactNode, loadContactAddresses } from './directory.node';

export const directory = defineModule({
  name: 'directory',
  entities: [SmartDirectory, SmartDirectoryField, ContactRecord, ContactAddress, ConsentDefinition, UserConsent],
  resolvers: [SmartDirectoryResolver, DirectoryContactResolver, UserDirectoriesResolver, CompanyDirectoriesResolver],
  references: { SmartDirectory: resolveSmartDirectoryReference },
  nodes: {
    SmartDirectory: nodeFromReference('directoryUUID', NODE_KEY.uuid, resolveSmartDirectoryReference),
    DirectoryContact: directoryContactNode,
  },
  // Address is the address module's type; the addresses of contact records follow this module's rule.
  nodeLoaders: { Address: loadContactAddresses },
  loaders: createDirectoryLoaders,
  tag: 'Smart directory',
  routes: directoryRoutes,
  seeders: () => import('./directory.seeder.js').then((m) => [m.DirectorySeeder]),
});

export { ConsentDefinition, UserConsent } from './consent.entity';
export { companyConsentRows, consentRowsByUuid, eventConsentRows, givenConsentPairs, type EConsentRow } from './directory.queries';
export { DIRECTORY_ORDERS, DIRECTORY_TYPES, type DirectoryOrder, type DirectoryType, SmartDirectory } from './directory.entity';
export { createSmartDirectory, DEFAULT_FIELD_IDS, type DirectoryConsentSpec } from './directory.service';
export { answersDirectoryConsents } from './directory.access';
