// Per-request DataLoaders: each module contributes create<X>Loaders(em); never module-scoped.
import type { EntityManager } from '@mikro-orm/core';
import { createCompanyLoaders } from './modules/company/company.loaders';
import { createDiscoveryLoaders } from './modules/discovery/discovery.loaders';
import { createReferenceDataLoaders } from './modules/reference-data/reference-data.loaders';
import { createUserLoaders } from './modules/user/user.loaders';
import { createAddressLoaders } from './modules/address/address.loaders';
import { createConsentLoaders } from './modules/consent/consent.loaders';
import { createDirectoryLoaders } from './modules/directory/directory.loaders';
import { createEventLoaders } from './modules/event/event.loaders';
import { createLibraryLoaders } from './modules/library/library.loaders';

export function createLoaders(em: EntityManager) {
  return {
    ...createLibraryLoaders(em),
    ...createCompanyLoaders(em),
    ...createDiscoveryLoaders(em),
    ...createReferenceDataLoaders(em),
    ...createUserLoaders(em),
    ...createAddressLoaders(em),
    ...createConsentLoaders(em),
    ...createDirectoryLoaders(em),
    ...createEventLoaders(em),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
