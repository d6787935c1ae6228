// With REDIS_URL the automatic persisted queries' store is Redis, shared by the instances: a
// document registered on one is served by id on the other. The rest of trusted documents:
// test/security/trusted-documents.test.ts.
import { suffix } from '../kit';
import { useRedisPair } from '../kit/redis';
import { byId, post, sha256 } from '../security/persisted-queries';

describe('with REDIS_URL: one persisted query store for every instance', () => {
  const pair = useRedisPair('apq');
  const { a, b } = pair;

  it('when a document is registered on one instance, then the other serves it by id; Redis keeps it for a day', async () => {
    const query = `query shared${suffix()} { __typename }`;
    expect(await post(b, byId(query))).toMatchObject({ body: { errors: [{ extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } }] } });
    expect(await post(a, { query, ...byId(query) })).toMatchObject({ status: 200, body: { data: { __typename: 'Query' } } });
    // Apollo writes the store after answering.
    for (let i = 0; i < 50 && !(await pair.redis().exists(`apq:${sha256(query)}`)); i++) await new Promise((r) => setTimeout(r, 20));
    expect(await pair.redis().get(`apq:${sha256(query)}`)).toBe(query);
    expect(await pair.redis().ttl(`apq:${sha256(query)}`)).toBeGreaterThan(24 * 3600 - 60);
    expect(await post(b, byId(query))).toMatchObject({ status: 200, body: { data: { __typename: 'Query' } } });
  });
});
