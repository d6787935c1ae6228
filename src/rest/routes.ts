// THE route table: every REST path of the service. The router, the OpenAPI document and the
// authorization sweep all read this list. Each module contributes its rows.
import type { RouteDef } from './route';
import { referenceDataRoutes } from '../modules/reference-data/reference-data.routes';

export const ROUTES: RouteDef[] = [...referenceDataRoutes];
