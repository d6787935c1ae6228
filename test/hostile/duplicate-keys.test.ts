// A JSON body naming a key twice is refused, on REST and on /graphql (issue 52, row 5; DESIGN: a
// field given twice is refused), where JSON.parse would keep the last one: `{"uId":2002,"uId":2001}`
// must not reach an operation as 2001.
import { useTestApp, type NewUser } from '../kit';

const t = useTestApp();

let user: NewUser;
beforeAll(async () => {
  user = await t.newUser();
});

const raw = (body: string) => ({ rawBody: body, headers: { 'content-type': 'application/json' } });
const twice = (field: string, path = field) => ({
  errorCode: 'WSInvalidParameterException',
  message: `${path} is given twice.`,
  field,
});

describe('REST', () => {
  it('when updateUserProfile names uId twice, then 400 names uId and the profile is unchanged', async () => {
    const before = await t.row('app_user', { u_id: user.uId });
    const res = await user.rest('PUT', '/rest/user/profile', raw(`{"uId":2002,"uId":${user.uId},"uFirstName":"Twice"}`));
    expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: twice('uId') });
    expect(await t.row('app_user', { u_id: user.uId })).toEqual(before);
  });

  it('when the two keys differ only in their escapes (uId and \\u0075Id), then they are the same key and refused', async () => {
    const res = await user.rest('PUT', '/rest/user/profile', raw(`{"uId":${user.uId},"\\u0075Id":2002}`));
    expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: twice('uId') });
  });

  it('when a key is repeated inside a list item, then 400 names it with its place', async () => {
    const body = `{"typeCode":"O","name":"Twice","street":"1 Main St","city":"Sydney","extra":[{"a":1},{"b":"x:\\"y\\"","b":2}]}`;
    const res = await user.rest('POST', '/rest/user/addresses', raw(body));
    expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: twice('b', 'extra[1].b') });
  });

  it('when sibling objects use the same keys, or a string holds quotes and colons, then the body is taken', async () => {
    const body = `{"typeCode":"O","name":"Home \\"A\\": \\\\","street":"1 Main St","city":"Sydney","x":{"k":1},"y":{"k":1}}`;
    const res = await user.rest('POST', '/rest/user/addresses', raw(body));
    expect(res.status).toBe(200);
    expect(res.body.name).toBe('Home "A": \\');
  });
});

describe('/graphql', () => {
  const post = (body: string) => t.rest('POST', '/graphql', raw(body));

  it('when the body names query twice, then 400 names query and neither runs', async () => {
    const res = await post('{"query":"{ __typename }","query":"{ me { uId } }"}');
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('query is given twice.');
  });

  it('when a variable is given twice, then 400 names it with its place', async () => {
    const res = await post('{"query":"query Q($n: String) { __typename }","variables":{"n":"a","n":"b"}}');
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('variables.n is given twice.');
  });
});
