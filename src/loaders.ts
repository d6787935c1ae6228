// Per-request DataLoaders: each module contributes create<X>Loaders(em); never module-scoped.
import type { EntityManager } from '@mikro-orm/core';
import { createReferenceDataLoaders } from './modules/reference-data/reference-data.loaders';

export function createLoaders(em: EntityManager) {
  return {
    ...createReferenceDataLoaders(em),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
