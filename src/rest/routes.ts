// THE route table: every REST path of the service, from the module list the composition root
// (src/app.ts) hands in. The router, the OpenAPI document and the authorization sweep all read it.
import type { ModuleDefinition } from '../core/module';
import type { RouteDef } from './route';

/** Each module's routes under its area, its OpenAPI tag (a route may name its own). */
export function routeTable(modules: readonly ModuleDefinition[]): RouteDef[] {
  return modules.flatMap((m) => (m.routes ?? []).map((r) => ({ ...r, tag: r.tag ?? m.tag })));
}
