// The libraries GraphQL clients pick, run as their users run them, with no configuration of ours:
// relay-compiler and graphql-codegen against schema/client.graphql (the schema clients see), and
// Apollo Client 4's default InMemoryCache against the running service. What relay-compiler writes
// is then sent to the service, so a Relay refetch and a pagination query are answered, not only
// compiled.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ApolloClient, HttpLink, InMemoryCache, gql } from '@apollo/client';
import { relayStylePagination } from '@apollo/client/utilities';
import { DEMO, NORTHWIND, nodeId, OLIVIA, useTestApp } from '../kit';
import { HOME_SCREEN_QUERY } from '../../src/graphql/examples';
import { printClientSchema } from '../../src/graphql/print';
import { createSchema } from '../../src/graphql/schema';
import { MODULES } from '../../src/modules';

const ROOT = path.join(__dirname, '../..');
const BIN = path.join(ROOT, 'node_modules/.bin');
const CLIENT_SCHEMA = path.join(ROOT, 'schema/client.graphql');

const t = useTestApp();

describe('schema/client.graphql', () => {
  it('is the printed current client schema (run npm run schema when this fails)', async () => {
    expect(fs.readFileSync(CLIENT_SCHEMA, 'utf8')).toBe(printClientSchema(await createSchema(MODULES)));
  });

  it('holds none of the federation machinery, and its scalars say their specification', () => {
    const sdl = fs.readFileSync(CLIENT_SCHEMA, 'utf8');
    expect(sdl.match(/@link|@key|@shareable|\b_Any\b|\b_Entity\b|\b_Service\b|_entities|_service|federation__|link__/g)).toBeNull();
    expect(sdl.match(/^scalar .*$/gm)).toEqual([
      'scalar Timestamp @specifiedBy(url: "https://tc39.es/ecma262/#sec-time-values-and-time-range")',
      'scalar Upload @specifiedBy(url: "https://github.com/jaydenseric/graphql-multipart-request-spec")',
    ]);
    expect(sdl).toContain('interface Node {');
    expect(sdl).toContain('node(');
  });
});

/** A temporary project folder holding the client schema and the given files. */
function project(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pronet-client-'));
  fs.copyFileSync(CLIENT_SCHEMA, path.join(dir, 'client.graphql'));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

function run(dir: string, command: string, args: string[]) {
  const res = spawnSync(path.join(BIN, command), args, {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, NODE_PATH: path.join(ROOT, 'node_modules'), NO_COLOR: '1' },
    timeout: 60_000,
  });
  return { status: res.status, output: `${res.stdout}${res.stderr}` };
}

describe('relay-compiler', () => {
  const RELAY_SOURCE = `import { graphql } from 'react-relay';
export const card = graphql\`
  fragment UserCard_user on User @refetchable(queryName: "UserCardRefetchQuery") { id uFirstName }
\`;
export const events = graphql\`
  fragment UserEvents_user on User
  @argumentDefinitions(count: { type: "Int", defaultValue: 3 }, cursor: { type: "String" })
  @refetchable(queryName: "UserEventsPaginationQuery") {
    events(first: $count, after: $cursor) @connection(key: "UserEvents_events") {
      edges { node { eventUUID eName eUTCStartDateTime } }
    }
  }
\`;
export const home = graphql\`
  query HomeQuery { me { ...UserCard_user ...UserEvents_user } }
\`;
`;
  let dir: string;
  const operationText = (name: string): string => {
    const artifact = fs.readFileSync(path.join(dir, 'src/__generated__', `${name}.graphql.ts`), 'utf8');
    return JSON.parse(/"text": ("(?:[^"\\]|\\.)*")/.exec(artifact)![1]) as string;
  };

  beforeAll(() => {
    dir = project({
      'relay.config.json': JSON.stringify({
        src: './src',
        schema: './client.graphql',
        language: 'typescript',
        artifactDirectory: './src/__generated__',
        customScalarTypes: { Timestamp: 'number', Upload: 'File' },
      }),
      'src/User.ts': RELAY_SOURCE,
      'src/__generated__/.keep': '',
    });
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('compiles a @refetchable fragment on User and a @connection on its events', () => {
    const res = run(dir, 'relay-compiler', []);
    expect({ status: res.status, failed: /ERROR/.test(res.output) }).toEqual({ status: 0, failed: false });
    expect(fs.readdirSync(path.join(dir, 'src/__generated__')).sort()).toEqual([
      '.keep',
      'HomeQuery.graphql.ts',
      'UserCardRefetchQuery.graphql.ts',
      'UserCard_user.graphql.ts',
      'UserEventsPaginationQuery.graphql.ts',
      'UserEvents_user.graphql.ts',
    ]);
    expect(fs.readFileSync(path.join(dir, 'src/__generated__/UserEvents_user.graphql.ts'), 'utf8')).toContain(
      'readonly eUTCStartDateTime: number;',
    );
  });

  it('the refetch query Relay wrote fetches the user again through node(id:)', async () => {
    const res = await t.as(OLIVIA).gql(operationText('UserCardRefetchQuery'), { id: nodeId('User', OLIVIA) });
    expect(res.body).toEqual({
      data: { node: { __typename: 'User', id: nodeId('User', OLIVIA), uFirstName: 'Olivia' } },
    });
  });

  it('the pagination query Relay wrote pages the events after a cursor', async () => {
    const olivia = t.as(OLIVIA);
    const text = operationText('UserEventsPaginationQuery');
    const first = await olivia.gql(text, { id: nodeId('User', OLIVIA), count: 3 });
    const events = first.body.data.node.events;
    expect(events.edges).toHaveLength(3);
    expect(events.pageInfo.hasNextPage).toBe(true);
    const next = await olivia.gql(text, { id: nodeId('User', OLIVIA), count: 3, cursor: events.pageInfo.endCursor });
    const all = await olivia.gql('{ me { events(first: 6) { edges { node { eventUUID } } } } }');
    expect([...events.edges, ...next.body.data.node.events.edges].map((e: any) => e.node.eventUUID)).toEqual(
      all.body.data.me.events.edges.map((e: any) => e.node.eventUUID),
    );
  });
});

describe('graphql-codegen', () => {
  it('types the home-screen query with the scalar mapping of docs/api/graph.md, and nothing of federation', () => {
    const dir = project({
      'codegen.yml': [
        'schema: ./client.graphql',
        'documents: ./documents/*.graphql',
        'generates:',
        '  ./types.ts:',
        '    plugins: [typescript, typescript-operations]',
        '    config:',
        '      strictScalars: true',
        '      scalars: { Timestamp: number, Upload: File }',
        '',
      ].join('\n'),
      'documents/home.graphql': HOME_SCREEN_QUERY,
    });
    try {
      const res = run(dir, 'graphql-codegen', ['--config', 'codegen.yml']);
      expect({ status: res.status, output: res.status === 0 ? '' : res.output }).toEqual({ status: 0, output: '' });
      const types = fs.readFileSync(path.join(dir, 'types.ts'), 'utf8');
      expect(types).toContain('Timestamp: { input: number; output: number; }');
      expect(types).toContain('Upload: { input: File; output: File; }');
      expect(types).toContain('export type HomeScreenQuery = ');
      expect(types.match(/_Any|_Entity|_Service|federation__|link__/g)).toBeNull();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('Apollo Client 4 with its default cache', () => {
  const warnings: unknown[][] = [];
  let spies: jest.SpyInstance[];
  beforeEach(() => {
    warnings.length = 0;
    spies = (['warn', 'error'] as const).map((level) =>
      jest.spyOn(console, level).mockImplementation((...args: unknown[]) => void warnings.push(args)),
    );
  });
  afterEach(() => spies.forEach((s) => s.mockRestore()));

  async function client(cache: InMemoryCache) {
    const token = await t.as(OLIVIA).token();
    return new ApolloClient({ cache, link: new HttpLink({ uri: `${t.baseUrl}/graphql`, headers: { 'x-service-authtoken': token } }) });
  }

  it('normalises the documented home-screen query and a second read of me, with no warning', async () => {
    const cache = new InMemoryCache();
    const apollo = await client(cache);
    await apollo.query({ query: gql(HOME_SCREEN_QUERY) });
    await apollo.query({ query: gql('query meAgain { me { id uFirstName connections { status } } }') });
    const stored = cache.extract() as Record<string, any>;
    const me = `User:${nodeId('User', OLIVIA)}`;
    expect(stored.ROOT_QUERY.me).toEqual({ __ref: me });
    expect(stored[me].uFirstName).toBe('Olivia');
    expect(Object.keys(stored)).toEqual(
      expect.arrayContaining([
        `Company:${nodeId('Company', NORTHWIND)}`,
        `SmartLibrary:${nodeId('SmartLibrary', DEMO.library.smartLibId)}`,
        `SmartEntry:${nodeId('SmartEntry', DEMO.library.welcomePackEntryId)}`,
        `Event:${nodeId('Event', DEMO.eventUuidOf(1))}`,
      ]),
    );
    expect(warnings).toEqual([]);
  });

  it("relayStylePagination merges a user's event pages into one list", async () => {
    const cache = new InMemoryCache({ typePolicies: { User: { fields: { events: relayStylePagination() } } } });
    const apollo = await client(cache);
    const query = gql(`query myEvents($after: String) { me { id events(first: 4, after: $after) {
      edges { cursor node { eventUUID } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } } }`);
    const first = await apollo.query({ query });
    const after = (first.data as any).me.events.pageInfo.endCursor as string;
    const merged = await apollo.query({ query, variables: { after }, fetchPolicy: 'network-only' });
    const all = await t.as(OLIVIA).gql('{ me { events(first: 8) { edges { node { eventUUID } } } } }');
    expect((merged.data as any).me.events.edges.map((e: any) => e.node.eventUUID)).toEqual(
      all.body.data.me.events.edges.map((e: any) => e.node.eventUUID),
    );
    expect(warnings).toEqual([]);
  });
});
