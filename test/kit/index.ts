// The test kit: what a test file needs to arrange and call the service.
//
//   const t = useTestApp();                 // beforeAll/afterAll of this file; t is the running app
//   const olivia = t.as(OLIVIA);            // her token, stored once for the file when the app starts
//   const { t, olivia, admin } = useDemoApp(); // or both at once: the demo tenant's callers, made in the kit
//   await olivia.rest('GET', '/rest/user/profile');
//   const u = await t.newUser();            // a fresh user, signed in
//   expect(await t.row('user_address', { uuid })).toMatchObject({ city: 'Sydney' });
//
// Narrower tools are imported from their own files: db.ts, errors.ts (unit tests), memory.ts,
// oauth.ts, route-sweep.ts, smtp.ts, spawn.ts, src.ts (the parts of src tests reach past the API).
export {
  anUnchangedAddress,
  expectUnchangedAfterEach,
  useDemoApp,
  useTestApp,
  useWithoutDatabase,
  type DemoApp,
  type UseTestAppOptions,
} from './use';
export { GQL_ACCEPT, startTestApp, type Client, type GqlBody, type NewUser, type TestApp, type TestAppOptions } from './app';
export type { Caller, Who } from './caller';
export { freePort, restartablePort, type FilePart, type FormEntries, type FormParts, type Reply, type RequestOptions } from './http';
export { DEMO, NORTHWIND, OLIVIA, IAN, CARA, OMAR, PAT, OLIVIA_WORK_ADDRESS } from './demo';
export * from './factories';
export * from './files';
export { formParts } from './form-parts';
export * from './library';
export * from './support-group';
export { fingerprint } from './fingerprint';
export { gatewayRequest } from './gateway';
export { ENTITY_FIELDS, nodeId } from './node-id';
export { createManagedNotifications, createQrCode } from './node-fixtures';
