// A database that stops answering: the profile, address and consent operations answer 503
// with their module's service exception, never a 500 or a hang. The outage is simulated at
// the ORM's connection, below every module, with the error a refused TCP connection raises.
import { startTestApp, type TestApp } from '../helpers/app';
import { tokenFor, userAuth } from '../factories';

let t: TestApp;
let headers: Record<string, string>;
let restore: () => void;
beforeAll(async () => {
  t = await startTestApp();
  headers = userAuth(await tokenFor(t.db.orm, 2001));
  const connection = t.db.orm.em.getConnection() as any;
  const refused = () => Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }));
  const spies = ['execute', 'begin', 'transactional'].map((m) => jest.spyOn(connection, m).mockImplementation(refused));
  restore = () => spies.forEach((s) => s.mockRestore());
});
afterAll(async () => {
  restore();
  await t.close();
});

const ADDRESS = 'a0000000-0000-4000-8000-000000002001';

it.each([
  ['GET', '/rest/user/profile', undefined, 'WSUserServiceException', 'The user service is unavailable.'],
  ['PUT', '/rest/user/profile', { uId: 2001, uFirstName: 'x' }, 'WSUserServiceException', 'The user service is unavailable.'],
  ['GET', '/rest/user/econsents?type=C&companyId=1001', undefined, 'WSUserServiceException', 'The user service is unavailable.'],
  ['GET', '/rest/user/addresses', undefined, 'WSAddressServiceException', 'The address service is unavailable.'],
  ['POST', '/rest/user/addresses', { typeCode: 'W' }, 'WSAddressServiceException', 'The address service is unavailable.'],
  ['PUT', `/rest/user/addresses/${ADDRESS}`, { uuid: ADDRESS, city: 'x' }, 'WSAddressServiceException', 'The address service is unavailable.'],
  ['DELETE', `/rest/user/addresses/${ADDRESS}`, undefined, 'WSAddressServiceException', 'The address service is unavailable.'],
])('when %s %s meets a database that does not answer, then 503', async (method, path, body, errorCode, message) => {
  const res = await t.rest(method, path, { headers, body });
  expect(res.status).toBe(503);
  expect(res.body).toEqual({ errorCode, message });
});

it('when the GraphQL profile query meets it, then the same code, no internals', async () => {
  const res = await t.gql('{ userProfile { uId } }', {}, headers);
  expect(res.body.errors![0]).toMatchObject({ message: 'The user service is unavailable.', extensions: { code: 'WSUserServiceException' } });
  expect(JSON.stringify(res.body)).not.toMatch(/ECONNREFUSED|5432/);
});
