// Trusted documents (GRAPHQL_TRUSTED_DOCUMENTS): under `enforce` a document outside the manifest
// (every REST route's document and the explorers' examples) is refused before it is parsed, unless
// a system token with the explore scope sends it; manifest documents run by text or by id; `log`
// runs everything and logs each unknown document once; `off` changes nothing (the live transports:
// trusted-live.test.ts). With REDIS_URL
// the automatic persisted queries' store is Redis, shared by the instances:
// test/redis/trusted-documents.redis.ts.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createSystemToken, OLIVIA, png, startTestApp, suffix, useTestApp, type TestApp } from '../kit';
import { productionEnv } from '../kit/production';
import { byId, post, sha256 } from './persisted-queries';
import { loadConfig } from '../../src/config';
import type { Context } from '../../src/context';
import { ROUTES } from '../kit/routes';
import { HOME_SCREEN_QUERY, NOTIFICATION_RECEIVED_SUBSCRIPTION } from '../../src/graphql/examples';
import { sandboxDocument } from '../../src/graphql/sandbox';
import { MANIFEST_FORMAT, trustedManifest } from '../../src/graphql/trusted-manifest';

const documentOf = (operation: string) => ROUTES.find((r) => r.operation === operation)!.document;

const PROFILE = documentOf('findUserProfile');
/** The same operation as a manifest document, but not its text: unknown. */
const PROFILE_REWORDED = `${PROFILE}\n`;

const NOT_TRUSTED = {
  status: 403,
  body: {
    errors: [
      {
        message:
          'The document is not in the trusted documents manifest. Send a manifest document (its text, or its id as ' +
          'extensions.persistedQuery.sha256Hash), or a system token with the explore scope in x-api-key.',
        extensions: { code: 'FORBIDDEN', errorCode: 'WSInsufficientPrivilegesException' },
      },
    ],
  },
};

const unknownLogs = (t: TestApp) => t.logs.filter((l) => l.msg === 'document not in the trusted documents manifest');

describe('the manifest', () => {
  const manifest = trustedManifest(ROUTES);
  const ids = new Set(manifest.operations.map((op) => op.id));

  it('holds every REST route document and every explorer example, each under the SHA-256 of its text', () => {
    expect(manifest).toMatchObject({ format: MANIFEST_FORMAT, version: 1 });
    for (const r of ROUTES)
      expect(manifest.operations).toContainEqual({ id: sha256(r.document), name: r.operation, type: expect.any(String), body: r.document });
    expect(manifest.operations).toContainEqual({
      id: sha256(HOME_SCREEN_QUERY),
      name: 'homeScreen',
      type: 'query',
      body: HOME_SCREEN_QUERY,
    });
    // Sandbox's examples are the home screen and route documents, by name.
    const sandboxOperations = [...sandboxDocument(ROUTES).matchAll(/^(?:query|mutation) (\w+)/gm)].map((m) => m[1]);
    for (const name of sandboxOperations) expect(manifest.operations.map((op) => op.name)).toContain(name);
    expect(ids.size).toBe(manifest.operations.length);
    expect(ids.size).toBe(new Set([...ROUTES.map((r) => r.document), HOME_SCREEN_QUERY, NOTIFICATION_RECEIVED_SUBSCRIPTION]).size);
  });

  it('is what `npm run build` writes to dist/trusted-documents.json', () => {
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'manifest-')), 'trusted-documents.json');
    execFileSync(process.execPath, [path.join(__dirname, '../../dist/scripts/trusted-manifest.js'), '--out', out]);
    expect(JSON.parse(fs.readFileSync(out, 'utf8'))).toEqual(manifest);
    const build = JSON.parse(fs.readFileSync(path.join(__dirname, '../../package.json'), 'utf8')).scripts.build as string;
    expect(build).toMatch(/^tsc -b tsconfig\.build\.json && node dist\/scripts\/trusted-manifest\.js( |$)/);
  });
});

describe('GRAPHQL_TRUSTED_DOCUMENTS=enforce', () => {
  const t = useTestApp({ env: { GRAPHQL_TRUSTED_DOCUMENTS: 'enforce' } });
  const olivia = t.as(OLIVIA);

  it('when a document is not in the manifest, then it is refused, 403 no-store, before anything runs (not even the token lookup)', async () => {
    await olivia.token();
    let res: Awaited<ReturnType<TestApp['gql']>> | undefined;
    const statements = await t.countStatements(async () => {
      res = await olivia.gql(PROFILE_REWORDED);
    });
    expect(res).toMatchObject(NOT_TRUSTED);
    expect(res!.body).toEqual(NOT_TRUSTED.body);
    expect(res!.headers.get('cache-control')).toBe('no-store');
    expect(statements).toBe(0);
    // The access log names the refusal.
    expect(t.logs.filter((l) => l.errorCode === 'WSInsufficientPrivilegesException' && l.operation === 'graphql').length).toBeGreaterThan(
      0,
    );
  });

  it('when a manifest document is sent by its text, then it runs', async () => {
    const res = await olivia.gql(PROFILE);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { userProfile: expect.objectContaining({ uId: OLIVIA }) } });
    const home = await olivia.gql(HOME_SCREEN_QUERY);
    expect(home.status).toBe(200);
    expect(home.body.errors).toBeUndefined();
    expect(home.body.data.me.connections.length).toBeGreaterThan(0);
  });

  it('when a manifest document is sent by its id alone (automatic persisted queries), then it runs without ever being registered', async () => {
    const res = await post(t, byId(PROFILE), { 'x-service-authtoken': await olivia.token() });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { userProfile: expect.objectContaining({ uId: OLIVIA }) } });
  });

  it('when an unknown document is registered as a persisted query, then it is refused and not stored; its id alone is refused too', async () => {
    const query = `query unregistered${suffix()} { __typename }`;
    expect(await post(t, { query, ...byId(query) })).toMatchObject(NOT_TRUSTED);
    expect(await post(t, byId(query))).toMatchObject(NOT_TRUSTED);
    // Not stored: even a caller who may explore does not find it by id.
    const explorer = await createSystemToken(t.orm, ['explore']);
    expect(await post(t, byId(query), { 'x-api-key': explorer })).toMatchObject({
      status: 200,
      body: { errors: [{ message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } }] },
    });
  });

  it('when a system token with the explore scope sends an unknown document, then it runs; what it registers stays refused to others', async () => {
    const explorer = await createSystemToken(t.orm, ['explore'], { name: 'Analyst' });
    const query = `query explored${suffix()} { __typename }`;
    const res = await post(t, { query, ...byId(query) }, { 'x-api-key': explorer });
    expect(res).toMatchObject({ status: 200, body: { data: { __typename: 'Query' } } });
    // Registered: the explorer may send the id alone; anyone else is refused.
    expect(await post(t, byId(query), { 'x-api-key': explorer })).toMatchObject({ status: 200, body: { data: { __typename: 'Query' } } });
    expect(await post(t, byId(query))).toMatchObject(NOT_TRUSTED);
  });

  it("when the router's federation token sends a document of its query plan, then it runs", async () => {
    const router = await createSystemToken(t.orm, ['federation'], { name: 'Router' });
    const fetch = 'query($representations: [_Any!]!) { _entities(representations: $representations) { __typename } }';
    const res = await t.gql(fetch, { representations: [] }, { 'x-api-key': router });
    expect(res).toMatchObject({ status: 200, body: { data: { _entities: [] } } });
  });

  it('when the system token lacks the explore scope, then the document is refused; an unknown token is 401', async () => {
    const ingestion = await createSystemToken(t.orm, ['ingestion']);
    expect(await t.gql('{ __typename }', undefined, { 'x-api-key': ingestion })).toMatchObject(NOT_TRUSTED);
    expect(await t.gql('{ __typename }', undefined, { 'x-api-key': `unknown-${suffix()}` })).toMatchObject({
      status: 401,
      body: {
        errors: [
          {
            message: 'The x-api-key system token is missing or invalid.',
            extensions: { code: 'UNAUTHENTICATED', errorCode: 'WSInvalidAuthTokenException' },
          },
        ],
      },
    });
    const revoked = await createSystemToken(t.orm, ['explore'], { revokedAt: new Date() });
    expect((await t.gql('{ __typename }', undefined, { 'x-api-key': revoked })).status).toBe(401);
  });

  it('when a document comes by GET or in a multipart request, then the same rule applies', async () => {
    const get = (params: Record<string, string>) =>
      fetch(`${t.baseUrl}/graphql?${new URLSearchParams(params).toString()}`, { headers: { 'apollo-require-preflight': 'true' } }).then(
        async (r) => ({
          status: r.status,
          body: await r.json(),
        }),
      );
    expect(await get({ query: '{ __typename }' })).toEqual(NOT_TRUSTED);
    const timezones = documentOf('getAllTimezones');
    const persisted = JSON.stringify(byId(timezones).extensions);
    expect(await get({ extensions: persisted })).toMatchObject({ status: 200, body: { data: { timezones: expect.any(Array) } } });

    const file = { content: await png(), filename: 'tile.png', type: 'image/png' };
    const unknown = await olivia.gqlMultipart(
      'mutation upload($file: Upload!) { uploadTileImage(file: $file) { tempImageName } }',
      { file: null },
      { file },
    );
    expect(unknown).toMatchObject(NOT_TRUSTED);
    const known = await olivia.gqlMultipart(documentOf('uploadTileImage'), { file: null }, { file });
    expect(known).toMatchObject({ status: 200, body: { data: { uploadTileImage: { tempImageName: expect.any(String) } } } });
  });

  it('when a document reaches Apollo without passing the /graphql guard, then Apollo refuses it too, before it runs', async () => {
    const contextValue = { credentials: {}, logger: { error: () => undefined, warn: () => undefined } } as unknown as Context;
    const res = await t.app.apollo.executeOperation({ query: PROFILE }, { contextValue });
    expect(res.http.status).toBe(403);
    expect(res.body).toEqual({ kind: 'single', singleResult: NOT_TRUSTED.body });
  });

  it('when a REST route is called, then it runs as before (REST runs its own documents)', async () => {
    // fetch, not t.rest: the answer's body is not what this test is about.
    const res = await fetch(`${t.baseUrl}/rest/user/profile`, { headers: { 'x-service-authtoken': await olivia.token() } });
    expect(res.status).toBe(200);
  });
});

describe('GRAPHQL_TRUSTED_DOCUMENTS=log', () => {
  const t = useTestApp({ env: { GRAPHQL_TRUSTED_DOCUMENTS: 'log' } });

  it('when an unknown document arrives, then it runs and is logged once, by id; manifest documents are not logged', async () => {
    const query = `query probe${suffix()} { __typename }`;
    for (let i = 0; i < 2; i++) expect(await t.gql(query)).toMatchObject({ status: 200, body: { data: { __typename: 'Query' } } });
    expect(unknownLogs(t).filter((l) => l.documentId === sha256(query))).toEqual([
      expect.objectContaining({ level: 40, documentId: sha256(query), apiKey: false }),
    ]);
    const before = unknownLogs(t).length;
    expect((await t.as(OLIVIA).gql(PROFILE)).status).toBe(200);
    expect(unknownLogs(t).length).toBe(before);
    // Manifest documents are found by id here too.
    expect((await post(t, byId(PROFILE), { 'x-service-authtoken': await t.as(OLIVIA).token() })).status).toBe(200);
  });
});

describe('GRAPHQL_TRUSTED_DOCUMENTS=off (the default outside production)', () => {
  const t = useTestApp();

  it('when an unknown document arrives, then it runs and nothing is logged; an id is found only once registered', async () => {
    expect(t.config.trustedDocuments).toBe('off');
    expect(await t.gql(PROFILE_REWORDED, undefined, { 'x-service-authtoken': await t.as(OLIVIA).token() })).toMatchObject({
      status: 200,
      body: { data: { userProfile: expect.objectContaining({ uId: OLIVIA }) } },
    });
    expect(unknownLogs(t)).toEqual([]);
    expect(await post(t, byId(PROFILE))).toMatchObject({ body: { errors: [{ extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } }] } });
  });
});

describe("GRAPHQL_TRUSTED_DOCUMENTS_MANIFEST: a client's own documents", () => {
  const query = `query clientHome${suffix()} { __typename }`;
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'client-manifest-')), 'client.json');
  fs.writeFileSync(
    file,
    JSON.stringify({
      format: MANIFEST_FORMAT,
      version: 1,
      operations: [{ id: sha256(query), name: 'clientHome', type: 'query', body: query }],
    }),
  );
  const t = useTestApp({ env: { GRAPHQL_TRUSTED_DOCUMENTS: 'enforce', GRAPHQL_TRUSTED_DOCUMENTS_MANIFEST: file } });

  it('when a document of that file is sent, by text or by id, then it runs; the built-in manifest still runs', async () => {
    expect(await t.gql(query)).toMatchObject({ status: 200, body: { data: { __typename: 'Query' } } });
    expect(await post(t, byId(query))).toMatchObject({ status: 200, body: { data: { __typename: 'Query' } } });
    expect((await t.as(OLIVIA).gql(PROFILE)).status).toBe(200);
    expect(await t.gql('{ __typename }')).toMatchObject(NOT_TRUSTED);
  });

  it('when an id of the file is not the SHA-256 of its body, then the service does not start', async () => {
    const bad = badManifest();
    await expect(
      startTestApp({ db: t.db, env: { GRAPHQL_TRUSTED_DOCUMENTS: 'enforce', GRAPHQL_TRUSTED_DOCUMENTS_MANIFEST: bad } }),
    ).rejects.toThrow(`${bad}: the id of x is not the SHA-256 of its body`);
  });

  // PGlite has no other sessions to count: the embedded database runs this check nowhere.
  (process.env.DATABASE_URL ? it : it.skip)(
    'when such a start fails, then it leaves no listening connection open (PostgreSQL server only)',
    async () => {
      const bad = badManifest();
      const listening = async () =>
        (await t.sql(`select count(*)::int as n from pg_stat_activity where datname = current_database() and query like 'LISTEN %'`))[0].n;
      const before = await listening();
      // The running app's own bus listens: the count sees listening connections.
      expect(before).toBeGreaterThan(0);
      await expect(
        startTestApp({ db: t.db, env: { GRAPHQL_TRUSTED_DOCUMENTS: 'enforce', GRAPHQL_TRUSTED_DOCUMENTS_MANIFEST: bad } }),
      ).rejects.toThrow('is not the SHA-256 of its body');
      // Bounded wait: a bus left open connects within its first attempt (well under a second here).
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(await listening()).toBe(before);
    },
  );

  function badManifest(): string {
    const bad = path.join(path.dirname(file), 'bad.json');
    fs.writeFileSync(
      bad,
      JSON.stringify({ format: MANIFEST_FORMAT, version: 1, operations: [{ id: 'abc', name: 'x', type: 'query', body: query }] }),
    );
    return bad;
  }
});

describe('the default', () => {
  it('is log in production and off elsewhere', () => {
    expect(loadConfig(productionEnv()).trustedDocuments).toBe('log');
    expect(loadConfig({ NODE_ENV: 'development' }).trustedDocuments).toBe('off');
    expect(() => loadConfig({ GRAPHQL_TRUSTED_DOCUMENTS: 'strict' })).toThrow(
      'GRAPHQL_TRUSTED_DOCUMENTS must be off, log or enforce, got "strict"',
    );
  });
});
