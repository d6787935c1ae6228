// pageSize of the sent lists (endpoints 16 and 17) is checked whether or not pageNum is given:
// without pageNum REST streams the whole list, and a pageSize of 0, -1 or 100000 was passed over
// (200 with every record). The bound is the argument's rule, the GraphQL twins' too.
import { CARA, NORTHWIND, useTestApp } from '../kit';

const t = useTestApp();
const cara = t.as(CARA);

const LISTS = [
  ['/rest/notification/sent', 'sentNotifications'],
  ['/rest/notification/scheduled/sent', 'sentScheduledNotifications'],
] as const;

const REFUSED = { errorCode: 'WSInvalidParameterException', message: 'pageSize must be from 1 to 500.', field: 'pageSize' };

describe.each(LISTS)('%s', (path, field) => {
  const base = `${path}?version=1&broadcastType=GT&companyId=${NORTHWIND}`;

  it.each(['0', '-1', '501', '100000'])('when pageSize is %s, with or without pageNum, then 400 names pageSize', async (pageSize) => {
    for (const page of ['', '&pageNum=1', '&pageNum=3']) {
      const res = await cara.rest('GET', `${base}&pageSize=${pageSize}${page}`);
      expect({ page, status: res.status, body: res.body }).toEqual({ page, status: 400, body: REFUSED });
    }
  });

  it('when pageSize is 1 to 500 without pageNum, then the whole list comes back, as without pageSize', async () => {
    const whole = await cara.rest('GET', base);
    expect(whole.status).toBe(200);
    expect(whole.body.length).toBeGreaterThan(0);
    for (const pageSize of ['1', '500']) expect((await cara.rest('GET', `${base}&pageSize=${pageSize}`)).body).toEqual(whole.body);
  });

  it.each([0, -1, 501, 100_000])('when pageSize is %d in GraphQL, then WSInvalidParameterException names pageSize', async (pageSize) => {
    for (const pageNum of [null, 1]) {
      const res = await cara.gql(
        `query($n: Int, $p: Int) { ${field}(version: 1, broadcastType: "GT", companyId: ${NORTHWIND}, pageSize: $n, pageNum: $p) { companyId } }`,
        { n: pageSize, p: pageNum },
      );
      expect(res.body).toEqual({
        data: null,
        errors: [
          {
            message: 'pageSize must be from 1 to 500.',
            locations: [{ line: 1, column: 27 }],
            path: [field],
            extensions: { code: 'BAD_USER_INPUT', errorCode: 'WSInvalidParameterException', field: 'pageSize' },
          },
        ],
      });
    }
  });
});
