// THE route table: every REST path of the service, from the module list the composition root
// (src/app.ts) hands in. The router, the OpenAPI document and the authorization sweep all read it.
import type { ModuleDefinition } from '../core/module';
import type { RouteDef } from './route';
import { textOf } from './body-selection';

/**
 * Each module's routes under its area, its OpenAPI tag (a route may name its own), with their
 * documents' REST bodies worked out now that every module's types have all their fields.
 */
export function routeTable(modules: readonly ModuleDefinition[]): RouteDef[] {
  return modules.flatMap((m) => (m.routes ?? []).map((r) => ({ ...r, document: textOf(r.document), tag: r.tag ?? m.tag })));
}
