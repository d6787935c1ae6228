// JSON answers: REST sends the bytes its JSON text encodes to (src/rest/respond.ts `sendJson`),
// GraphQL Apollo's text as Koa sends it. Either way the type says UTF-8 JSON (on GraphQL the
// media type the kit's Accept asks for), the length is the bytes' length, and text outside ASCII
// arrives exactly.
import { useTestApp } from '../kit';
import type { Reply } from '../kit/http';

const t = useTestApp();

// Latin-1, a combining mark, CJK and an emoji (a surrogate pair in JavaScript, 4 bytes in UTF-8).
const NAME = 'Zoë Åsa-Ñuñez 東京 \u0065\u0301 \u{1F600}';

function expectJsonBytes(res: Reply, type = 'application/json') {
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe(`${type}; charset=utf-8`);
  expect(Number(res.headers.get('content-length'))).toBe(res.bytes.length);
  expect(res.bytes.length).toBe(Buffer.byteLength(res.text));
}

describe('JSON answers as bytes', () => {
  it('when a REST read answers text outside ASCII, then its bytes, length and type are exact', async () => {
    const u = await t.newUser();
    const put = await u.rest('PUT', '/rest/user/profile', { body: { uId: u.uId, uFirstName: NAME } });
    expect(put.status).toBe(200);
    const res = await u.rest('GET', '/rest/user/profile');
    expectJsonBytes(res);
    expect(res.body.uFirstName).toBe(NAME);
    // Every character is in the bytes as UTF-8 (the emoji as F0 9F 98 80), none escaped.
    expect(res.bytes.includes(Buffer.from(JSON.stringify(NAME).slice(1, -1)))).toBe(true);
    expect(res.bytes.includes(Buffer.from([0xf0, 0x9f, 0x98, 0x80]))).toBe(true);
  });

  it('when a REST read with an ETag answers, then the tag, bytes and length agree', async () => {
    const res = await t.rest('GET', '/rest/refdata/conditions');
    expectJsonBytes(res);
    expect(Array.isArray(res.body)).toBe(true);
    const again = await t.rest('GET', '/rest/refdata/conditions', { headers: { 'if-none-match': res.headers.get('etag')! } });
    expect(again.status).toBe(304);
    expect(again.bytes.length).toBe(0);
  });

  it('when a GraphQL query answers text outside ASCII, then its bytes, length and type are exact', async () => {
    const u = await t.newUser();
    await u.rest('PUT', '/rest/user/profile', { body: { uId: u.uId, uFirstName: NAME } });
    const res = await u.gql('{ userProfile { uFirstName } }');
    expectJsonBytes(res, 'application/graphql-response+json');
    expect(res.body).toEqual({ data: { userProfile: { uFirstName: NAME } } });
  });

  it('when a GraphQL request fails validation, then the error answer is JSON bytes with its exact length', async () => {
    const res = await t.gql('{ noSuchField }');
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/graphql-response+json; charset=utf-8');
    expect(Number(res.headers.get('content-length'))).toBe(res.bytes.length);
    expect(res.body).toMatchObject({ errors: [{ message: 'Cannot query field "noSuchField" on type "Query".' }] });
  });
});
