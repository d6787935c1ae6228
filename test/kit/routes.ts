// The route table the app builds from the module list (src/app.ts), for the tests that sweep it.
import { MODULES } from '../../src/modules';
import { routeTable } from '../../src/rest/routes';

export const ROUTES = routeTable(MODULES);
