// THE route table: every REST path of the service, from the module list. The router, the
// OpenAPI document and the authorization sweep all read this list.
import type { ModuleDefinition } from '../core/module';
import { MODULES } from '../modules';
import type { RouteDef } from './route';

/** Each module's routes under its area, its OpenAPI tag (a route may name its own). */
export const ROUTES: RouteDef[] = MODULES.flatMap((m: ModuleDefinition) => (m.routes ?? []).map((r) => ({ ...r, tag: r.tag ?? m.tag })));
