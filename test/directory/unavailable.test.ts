// WSSmartDirectoryServiceException: the directory operations answer 503 when the database
// stops answering (simulated at the ORM's connection with a refused TCP connection's error).
import { DEMO, OLIVIA, useTestApp } from '../kit';

const t = useTestApp();
const olivia = t.as(OLIVIA); // its token is stored when the app starts, while the database answers
const addressTables = () => t.tableRows(['user_address', 'contact_address']);

const DIR = DEMO.directories.staff;
const COPY = DEMO.contactAddresses.staff;

it.each([
  ['GET', `/rest/smartdirectory/${DIR}/contactRecord/addresses`, undefined],
  ['PUT', `/rest/smartdirectory/${DIR}/contactRecord/addresses/${COPY}`, { uuid: COPY, city: 'Down' }],
  ['POST', `/rest/smartdirectory/${DIR}/contactRecord/addresses/copyFromUser`, { addressUUIDs: [DEMO.addresses.oliviaPersonal] }],
])(
  'when %s %s meets a database that does not answer, then 503 WSSmartDirectoryServiceException and nothing is written',
  async (method, path, body) => {
    const before = await addressTables();
    const connection = t.orm.em.getConnection() as any;
    const refused = () => Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }));
    const spies = ['execute', 'begin', 'transactional'].map((m) => jest.spyOn(connection, m).mockImplementation(refused));
    let res;
    try {
      res = await olivia.rest(method, path, { body });
    } finally {
      spies.forEach((s) => s.mockRestore());
    }
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ errorCode: 'WSSmartDirectoryServiceException', message: 'The smart directory service is unavailable.' });
    expect(await addressTables()).toEqual(before);
  },
);

it('when the outage ends, then the same request succeeds', async () => {
  const res = await olivia.rest('GET', `/rest/smartdirectory/${DIR}/contactRecord/addresses`);
  expect(res.status).toBe(200);
});
