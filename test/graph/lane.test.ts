// The /graphql lane (src/http/graphql-lane.ts): a query whose document is compiled already (a
// trusted document from the start, a client's own from its second use) runs without Apollo's
// request pipeline, and answers exactly what Apollo answers for the same request: status,
// headers and bytes, errors included (a request the lane does not take, one with `extensions`, is
// Apollo's). Each case also checks which path ran, by the lane's compiled query being called.
import { Kind, OperationTypeNode, parse, type OperationDefinitionNode } from 'graphql';
import { createSystemToken, OLIVIA, suffix, useTestApp, type TestApp } from '../kit';
import { ROUTES } from '../kit/routes';
import { HOME_SCREEN_QUERY } from '../../src/graphql/examples';
import { jitOf } from '../../src/graphql/apollo';
import type { Lane } from '../../src/graphql/jit-executor';

/** Headers that differ between any two answers. */
const PER_ANSWER = new Set(['date', 'x-request-id', 'keep-alive', 'connection']);

interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/** POST /graphql as a client sends it, read as bytes; `{ apollo: true }` adds `extensions: {}`, which only Apollo takes. */
async function send(t: TestApp, body: Record<string, unknown>, headers: Record<string, string>, apollo = false): Promise<Answer> {
  const res = await fetch(`${t.baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', ...headers },
    body: JSON.stringify(apollo ? { ...body, extensions: {} } : body),
  });
  const kept = [...res.headers].filter(([name]) => !PER_ANSWER.has(name));
  return { status: res.status, headers: Object.fromEntries(kept), text: await res.text() };
}

const laneOf = (t: TestApp, query: string, operationName?: string): Lane | undefined =>
  jitOf(t.app.apollo)!.lanes.find(query, operationName);

/** Runs `fn` and counts the calls of the lane's compiled query (0: Apollo answered). */
async function laneCalls(lane: Lane, fn: () => Promise<unknown>): Promise<number> {
  const spy = jest.spyOn(lane.query, 'query');
  try {
    await fn();
    return spy.mock.calls.length;
  } finally {
    spy.mockRestore();
  }
}

const operationOf = (document: string) =>
  parse(document).definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;

/** The route documents that are queries and need no variable: each runs as it is. */
const PLAIN_QUERIES = ROUTES.filter((r) => {
  const op = operationOf(r.document);
  return (
    op.operation === OperationTypeNode.QUERY &&
    !(op.variableDefinitions ?? []).some((v) => v.type.kind === Kind.NON_NULL_TYPE && !v.defaultValue)
  );
}).map((r) => [r.operation, r.document] as const);

describe('the lane on /graphql', () => {
  const t = useTestApp();
  const olivia = t.as(OLIVIA);
  let auth: Record<string, string>;
  beforeAll(async () => {
    auth = { 'x-service-authtoken': await olivia.token() };
  });

  it('holds a lane for every trusted query from the start', () => {
    expect(PLAIN_QUERIES.length).toBeGreaterThan(5);
    for (const r of ROUTES.filter((x) => operationOf(x.document).operation === OperationTypeNode.QUERY)) {
      expect(laneOf(t, r.document)).toMatchObject({ name: r.operation });
      expect(laneOf(t, r.document, r.operation)).toBe(laneOf(t, r.document));
    }
    expect(laneOf(t, HOME_SCREEN_QUERY)).toMatchObject({ name: 'homeScreen' });
  });

  it.each([...PLAIN_QUERIES, ['homeScreen', HOME_SCREEN_QUERY] as const])(
    '%s: the lane answers what Apollo answers, byte for byte',
    async (name, query) => {
      const lane = laneOf(t, query)!;
      const body = { query, operationName: name };
      let laned: Answer | undefined;
      expect(await laneCalls(lane, async () => void (laned = await send(t, body, auth)))).toBe(1);
      let apollo: Answer | undefined;
      expect(await laneCalls(lane, async () => void (apollo = await send(t, body, auth, true)))).toBe(0);
      expect(laned).toEqual(apollo);
      expect(laned!.headers['cache-control']).toBe('no-store');
      expect(laned!.headers['content-type']).toBe('application/graphql-response+json; charset=utf-8');
    },
  );

  it("a client's own document takes the lane from its third request, and answers what Apollo answered the first", async () => {
    const query = `query own${suffix()} { userProfile { uId uFirstName uLastName } }`;
    const first = await send(t, { query }, auth);
    expect(JSON.parse(first.text)).toEqual({
      data: { userProfile: { uId: OLIVIA, uFirstName: expect.any(String), uLastName: expect.any(String) } },
    });
    expect(laneOf(t, query)).toBeUndefined();
    await send(t, { query }, auth); // compiled by Apollo's executor, which opens the lane
    const lane = laneOf(t, query)!;
    expect(lane).toMatchObject({ name: expect.stringMatching(/^own/) });
    let third: Answer | undefined;
    expect(await laneCalls(lane, async () => void (third = await send(t, { query }, auth)))).toBe(1);
    expect(third).toEqual(first);
  });

  it('a lane whose run fails is answered by Apollo from that run: the same error, status and bytes, run once', async () => {
    const query = `query missing${suffix()} { smartLibrary(smartLibId: 999999) { smartLibName } }`;
    const first = await send(t, { query }, auth);
    expect(JSON.parse(first.text).errors[0].extensions.errorCode).toMatch(/^WS/);
    await send(t, { query }, auth);
    let third: Answer | undefined;
    expect(await laneCalls(laneOf(t, query)!, async () => void (third = await send(t, { query }, auth)))).toBe(1);
    expect(third).toEqual(first);
  });

  it('variables of the wrong type, or that are not text, are refused as Apollo refuses them, without running the lane', async () => {
    const query = `query one${suffix()}($id: Int!) { smartLibrary(smartLibId: $id) { smartLibName } }`;
    await send(t, { query, variables: { id: 1 } }, auth);
    await send(t, { query, variables: { id: 1 } }, auth);
    const lane = laneOf(t, query)!;
    for (const variables of [{ id: 'one' }, {}, { id: 1, extra: 'a\u0000b' }]) {
      let laned: Answer | undefined;
      expect(await laneCalls(lane, async () => void (laned = await send(t, { query, variables }, auth)))).toBe(0);
      expect(laned).toEqual(await send(t, { query, variables }, auth, true));
      expect(laned!.status).toBe(400);
    }
  });

  it('without a token the lane answers what Apollo answers (the field refuses the caller)', async () => {
    const [name, query] = PLAIN_QUERIES.find(([n]) => n === 'findUserProfile') ?? PLAIN_QUERIES[0];
    const laned = await send(t, { query, operationName: name }, {});
    expect(laned).toEqual(await send(t, { query, operationName: name }, {}, true));
    expect(JSON.parse(laned.text).errors[0].extensions.errorCode).toBe('WSInvalidAuthTokenException');
  });
});

describe('the lane under GRAPHQL_TRUSTED_DOCUMENTS=enforce', () => {
  const t = useTestApp({ env: { GRAPHQL_TRUSTED_DOCUMENTS: 'enforce' } });

  it("a document an explorer's runs compiled stays refused to everyone else", async () => {
    const explorer = { 'x-api-key': await createSystemToken(t.orm, ['explore']) };
    const query = `query explored${suffix()} { __typename }`;
    for (let i = 0; i < 3; i++) expect(JSON.parse((await send(t, { query }, explorer)).text)).toEqual({ data: { __typename: 'Query' } });
    const lane = laneOf(t, query)!;
    expect(lane).toBeDefined();
    let refused: Answer | undefined;
    const olivia = { 'x-service-authtoken': await t.as(OLIVIA).token() };
    expect(await laneCalls(lane, async () => void (refused = await send(t, { query }, olivia)))).toBe(0);
    expect(refused!.status).toBe(403);
    expect(JSON.parse(refused!.text).errors[0].extensions.errorCode).toBe('WSInsufficientPrivilegesException');
  });
});
