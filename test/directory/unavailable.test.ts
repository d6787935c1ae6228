// WSSmartDirectoryServiceException: the directory operations answer 503 when the database
// stops answering (simulated at the ORM's connection with a refused TCP connection's error).
import { startTestApp, type TestApp } from '../helpers/app';
import { tokenFor, userAuth } from '../factories';
import { addressTables } from './fixtures';

let t: TestApp;
let headers: Record<string, string>;
beforeAll(async () => {
  t = await startTestApp();
  headers = userAuth(await tokenFor(t.db.orm, 2001));
});
afterAll(() => t.close());

const DIR = 'd0000000-0000-4000-8000-000000001001';
const COPY = 'a0000000-0000-4000-8000-000000003001';

it.each([
  ['GET', `/rest/smartdirectory/${DIR}/contactRecord/addresses`, undefined],
  ['PUT', `/rest/smartdirectory/${DIR}/contactRecord/addresses/${COPY}`, { uuid: COPY, city: 'Down' }],
  ['POST', `/rest/smartdirectory/${DIR}/contactRecord/addresses/copyFromUser`, { addressUUIDs: ['a0000000-0000-4000-8000-000000002002'] }],
])('when %s %s meets a database that does not answer, then 503 WSSmartDirectoryServiceException and nothing is written', async (method, path, body) => {
  const before = await addressTables(t.db.orm);
  const connection = t.db.orm.em.getConnection() as any;
  const refused = () => Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }));
  const spies = ['execute', 'begin', 'transactional'].map((m) => jest.spyOn(connection, m).mockImplementation(refused));
  let res;
  try {
    res = await t.rest(method, path, { headers, body });
  } finally {
    spies.forEach((s) => s.mockRestore());
  }
  expect(res.status).toBe(503);
  expect(res.body).toEqual({ errorCode: 'WSSmartDirectoryServiceException', message: 'The smart directory service is unavailable.' });
  expect(await addressTables(t.db.orm)).toEqual(before);
});

it('when the outage ends, then the same request succeeds', async () => {
  const res = await t.rest('GET', `/rest/smartdirectory/${DIR}/contactRecord/addresses`, { headers });
  expect(res.status).toBe(200);
});
