// THE module list: every module once, in the order their demo data is seeded. The composition
// root (src/app.ts; server.ts, scripts and tests as well) hands it to what reads it: the ORM's
// entities, the GraphQL schema's resolvers and federation references, the request's loaders and
// principals, the services, the REST route table, the demo seed, the hooks, the background jobs
// and the OpenAPI document's 429s. A new module is one line here (docs/development.md).
import type { ModuleDefinition } from '../core/module';
import { referenceData } from './reference-data';
import { storage } from './storage';
import { company } from './company';
import { team } from './team';
import { identity } from './identity';
import { discovery } from './discovery';
import { user } from './user';
import { address } from './address';
import { consent } from './consent';
import { directory } from './directory';
import { event } from './event';
import { notification } from './notification';
import { library } from './library';
import { connection } from './connection';
import { membership } from './membership';
import { supportGroup } from './support-group';
import { push } from './push';
import { idempotency } from './idempotency';

export const MODULES = [
  referenceData,
  storage,
  company,
  team,
  identity,
  discovery,
  user,
  address,
  consent,
  directory,
  event,
  notification,
  library,
  connection,
  membership,
  supportGroup,
  push,
  idempotency,
] as const;

/** Every entity the ORM maps (createOrm's `entities`). */
export const ENTITIES = MODULES.flatMap((m: ModuleDefinition) => m.entities ?? []);

/** The operations that can answer 429 (the OpenAPI document lists it for them). */
export const RATE_LIMITED_OPERATIONS: ReadonlySet<string> = new Set(MODULES.flatMap((m: ModuleDefinition) => m.rateLimited ?? []));

/** Columns that keep stored blobs alive, of every module. */
export const BLOB_REFERENCES = MODULES.flatMap((m: ModuleDefinition) => m.blobReferences ?? []);

export { createOAuthServer } from './identity';
