// THE route table: every REST path of the service. The router, the OpenAPI document and the
// authorization sweep all read this list. Each module contributes its rows.
import type { RouteDef } from './route';
import { discoveryRoutes } from '../modules/discovery/discovery.routes';
import { connectionRoutes } from '../modules/company/connection.routes';
import { membershipRoutes } from '../modules/membership/membership.routes';
import { referenceDataRoutes } from '../modules/reference-data/reference-data.routes';
import { userRoutes } from '../modules/user/user.routes';
import { addressRoutes } from '../modules/address/address.routes';
import { consentRoutes } from '../modules/consent/consent.routes';
import { directoryRoutes } from '../modules/directory/directory.routes';
import { eventRoutes } from '../modules/event/event.routes';
import { notificationRoutes } from '../modules/notification/notification.routes';
import { identityRoutes } from '../modules/identity/identity.routes';
import { libraryRoutes } from '../modules/library/library.routes';
import { supportGroupRoutes } from '../modules/support-group/support-group.routes';

export const ROUTES: RouteDef[] = [...libraryRoutes, ...identityRoutes, ...referenceDataRoutes, ...userRoutes, ...addressRoutes, ...consentRoutes, ...directoryRoutes, ...eventRoutes, ...notificationRoutes, ...discoveryRoutes, ...connectionRoutes, ...membershipRoutes, ...supportGroupRoutes];
