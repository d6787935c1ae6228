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

/** A module's routes under its OpenAPI tag (a route may name its own). */
const tagged = (tag: string, routes: RouteDef[]): RouteDef[] => routes.map((r) => ({ ...r, tags: r.tags ?? [tag] }));

export const ROUTES: RouteDef[] = [
  ...tagged('Smart library', libraryRoutes),
  ...tagged('Identity', identityRoutes),
  ...tagged('Reference data', referenceDataRoutes),
  ...tagged('User profile', userRoutes),
  ...tagged('User profile', addressRoutes),
  ...tagged('User profile', consentRoutes),
  ...tagged('Smart directory', directoryRoutes),
  ...tagged('Events', eventRoutes),
  ...tagged('Notifications', notificationRoutes),
  ...tagged('Discovery', discoveryRoutes),
  ...tagged('Connections', connectionRoutes),
  ...tagged('Company administration', membershipRoutes),
  ...tagged('Company administration', supportGroupRoutes),
];
