// A database that stops answering: the profile, address and consent operations answer 503
// with their module's service exception, never a 500 or a hang. The outage is simulated at
// the ORM's connection, below every module, with the error a refused TCP connection raises.
import { DEMO, NORTHWIND, OLIVIA, useTestApp } from '../kit';

const t = useTestApp();
const olivia = t.as(OLIVIA); // its token is stored when the app starts, while the database answers
beforeAll(async () => {
  const connection = t.orm.em.getConnection() as any;
  const refused = () => Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }));
  const spies = ['execute', 'begin', 'transactional'].map((m) => jest.spyOn(connection, m).mockImplementation(refused));
  t.onClose(() => spies.forEach((s) => s.mockRestore()));
});

const ADDRESS = DEMO.addresses.oliviaWork;

it.each([
  ['GET', '/rest/user/profile', undefined, 'WSUserServiceException', 'The user service is unavailable.'],
  ['PUT', '/rest/user/profile', { uId: OLIVIA, uFirstName: 'x' }, 'WSUserServiceException', 'The user service is unavailable.'],
  ['GET', `/rest/user/econsents?type=C&companyId=${NORTHWIND}`, undefined, 'WSUserServiceException', 'The user service is unavailable.'],
  ['GET', '/rest/user/addresses', undefined, 'WSAddressServiceException', 'The address service is unavailable.'],
  ['POST', '/rest/user/addresses', { typeCode: 'W' }, 'WSAddressServiceException', 'The address service is unavailable.'],
  [
    'PUT',
    `/rest/user/addresses/${ADDRESS}`,
    { uuid: ADDRESS, city: 'x' },
    'WSAddressServiceException',
    'The address service is unavailable.',
  ],
  ['DELETE', `/rest/user/addresses/${ADDRESS}`, undefined, 'WSAddressServiceException', 'The address service is unavailable.'],
])('when %s %s meets a database that does not answer, then 503', async (method, path, body, errorCode, message) => {
  const res = await olivia.rest(method, path, { body });
  expect(res.status).toBe(503);
  expect(res.body).toEqual({ errorCode, message });
});

it('when the GraphQL profile query meets it, then the same code, no internals', async () => {
  const res = await olivia.gql('{ userProfile { uId } }');
  expect(res.body.errors![0]).toMatchObject({
    message: 'The user service is unavailable.',
    extensions: { code: 'SERVICE_UNAVAILABLE', errorCode: 'WSUserServiceException' },
  });
  expect(JSON.stringify(res.body)).not.toMatch(/ECONNREFUSED|5432/);
});
