// Every entity the ORM knows, from the module list: the ORM, the schema check and the
// migration generator all read it.
import type { ModuleDefinition } from '../core/module';
import { MODULES } from '../modules';

export const ENTITIES = MODULES.flatMap((m: ModuleDefinition) => m.entities ?? []);
