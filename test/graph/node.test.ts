// Global object identification (src/graphql/node.ts): every record type with identity has an
// opaque, stable `id` (base64url of its type and key); node(id:) and nodes(ids:) fetch records by
// it with the rule of the root operation that hands them out. Another user's record, an unknown
// one and a forged id all answer null with WSRecordNotFoundException naming `id`, never data and
// never a 5xx; nodes of 50 ids runs as many statements as nodes of 5.
import { DEMO, NORTHWIND, nodeId, OLIVIA, PAT, useTestApp, type Client } from '../kit';

const t = useTestApp();
const olivia = t.as(OLIVIA);
const pat = t.as(PAT);
const { hidden } = DEMO.companies;
const { smartLibId: LIBRARY, welcomePackEntryId: WELCOME_PACK } = DEMO.library;

const NODE_FIELDS = `__typename id
  ... on User { uId uFirstName }
  ... on Company { companyId companyName }
  ... on Event { eventUUID eName }
  ... on SmartLibrary { smartLibId smartLibName }
  ... on SmartEntry { smartEntryId smartEntryName }
  ... on SmartDirectory { directoryUUID directoryName }
  ... on Address { uuid name }
  ... on InboxNotification { notificationId message }`;

async function nodes(who: Client, ids: string[]) {
  const res = await who.gql(`query($ids:[ID!]!){ nodes(ids:$ids){ ${NODE_FIELDS} } }`, { ids });
  expect(res.status).toBe(200);
  return res.body;
}

/** The errors of an answer as [index in nodes, identifier, field], in index order. */
const errorsOf = (body: any) =>
  (body.errors ?? []).map((e: any) => [e.path[1], e.extensions.code, e.extensions.field]).sort((a: any[], b: any[]) => a[0] - b[0]);

let oliviaInboxItem: { id: string; notificationId: number; message: string };

beforeAll(async () => {
  const res = await olivia.gql('{ me { notifications(first: 1) { edges { node { id notificationId message } } } } }');
  expect(res.status).toBe(200);
  oliviaInboxItem = res.body.data.me.notifications.edges[0].node;
});

describe('ids', () => {
  it('every record read through its own field carries the id of its type and key, the same on every read', async () => {
    const query = `{
      me { id uId }
      userAddresses { id uuid }
      smartLibrary(smartLibId: ${LIBRARY}) { id smartLibId company { id companyId } }
      smartEntry(smartEntryId: ${WELCOME_PACK}) { id smartEntryId }
      event(eventUUID: "${DEMO.eventUuidOf(1)}") { id eventUUID }
      smartDirectory(directoryUUID: "${DEMO.directories.staff}") { id directoryUUID }
    }`;
    const first = await olivia.gql(query);
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({
      me: { id: nodeId('User', OLIVIA), uId: OLIVIA },
      userAddresses: [
        { id: nodeId('Address', DEMO.addresses.oliviaWork), uuid: DEMO.addresses.oliviaWork },
        { id: nodeId('Address', DEMO.addresses.oliviaPersonal), uuid: DEMO.addresses.oliviaPersonal },
      ],
      smartLibrary: {
        id: nodeId('SmartLibrary', LIBRARY),
        smartLibId: LIBRARY,
        company: { id: nodeId('Company', NORTHWIND), companyId: NORTHWIND },
      },
      smartEntry: { id: nodeId('SmartEntry', WELCOME_PACK), smartEntryId: WELCOME_PACK },
      event: { id: nodeId('Event', DEMO.eventUuidOf(1)), eventUUID: DEMO.eventUuidOf(1) },
      smartDirectory: { id: nodeId('SmartDirectory', DEMO.directories.staff), directoryUUID: DEMO.directories.staff },
    });
    expect(oliviaInboxItem.id).toBe(nodeId('InboxNotification', `${OLIVIA}:${oliviaInboxItem.notificationId}`));
    // A second read (graphql-jit compiles a document seen twice) answers the same ids.
    expect((await olivia.gql(query)).body).toEqual(first.body);
  });
});

describe('node and nodes', () => {
  it("node(id:) answers the caller's own records, each as its type", async () => {
    const res = await olivia.gql(`query($id: ID!){ node(id: $id){ ${NODE_FIELDS} } }`, { id: nodeId('User', OLIVIA) });
    expect(res.body).toEqual({ data: { node: { __typename: 'User', id: nodeId('User', OLIVIA), uId: OLIVIA, uFirstName: 'Olivia' } } });
  });

  it('nodes(ids:) answers records of every type in the order asked, as their own fields do', async () => {
    const ids = [
      nodeId('InboxNotification', `${OLIVIA}:${oliviaInboxItem.notificationId}`),
      nodeId('Company', NORTHWIND),
      nodeId('Event', DEMO.eventUuidOf(1)),
      nodeId('SmartLibrary', LIBRARY),
      nodeId('SmartEntry', WELCOME_PACK),
      nodeId('SmartDirectory', DEMO.directories.staff),
      nodeId('Address', DEMO.addresses.oliviaWork),
      nodeId('User', OLIVIA),
    ];
    expect(await nodes(olivia, ids)).toEqual({
      data: {
        nodes: [
          { __typename: 'InboxNotification', id: ids[0], notificationId: oliviaInboxItem.notificationId, message: oliviaInboxItem.message },
          { __typename: 'Company', id: ids[1], companyId: NORTHWIND, companyName: 'Northwind Health' },
          { __typename: 'Event', id: ids[2], eventUUID: DEMO.eventUuidOf(1), eName: 'Clinical skills workshop #1' },
          { __typename: 'SmartLibrary', id: ids[3], smartLibId: LIBRARY, smartLibName: 'Northwind Health library' },
          { __typename: 'SmartEntry', id: ids[4], smartEntryId: WELCOME_PACK, smartEntryName: 'Welcome pack' },
          { __typename: 'SmartDirectory', id: ids[5], directoryUUID: DEMO.directories.staff, directoryName: 'Northwind staff directory' },
          { __typename: 'Address', id: ids[6], uuid: DEMO.addresses.oliviaWork, name: expect.any(String) },
          { __typename: 'User', id: ids[7], uId: OLIVIA, uFirstName: 'Olivia' },
        ],
      },
    });
  });

  it("another user's records are null with WSRecordNotFoundException naming id, where the root fields refuse them too", async () => {
    const ids = [
      nodeId('User', OLIVIA),
      nodeId('Address', DEMO.addresses.oliviaWork),
      nodeId('InboxNotification', `${OLIVIA}:${oliviaInboxItem.notificationId}`),
      nodeId('InboxNotification', `${PAT}:${oliviaInboxItem.notificationId}`),
      nodeId('SmartEntry', WELCOME_PACK),
      nodeId('SmartLibrary', LIBRARY),
      nodeId('Event', DEMO.eventUuidOf(1)),
      nodeId('SmartDirectory', DEMO.directories.staff),
      nodeId('Company', hidden),
      nodeId('Company', NORTHWIND),
    ];
    const body = await nodes(pat, ids);
    expect(body.data.nodes).toEqual([
      ...Array(9).fill(null),
      { __typename: 'Company', id: ids[9], companyId: NORTHWIND, companyName: 'Northwind Health' },
    ]);
    expect(errorsOf(body)).toEqual(Array.from({ length: 9 }, (_v, i) => [i, 'WSRecordNotFoundException', 'id']));
    expect(body.errors![0].message).toBe('The record was not found.');
    // The root fields agree: Pat reads none of these records through them either.
    const root = await pat.gql(`{ smartEntry(smartEntryId: ${WELCOME_PACK}) { smartEntryId } }`);
    expect(root.body.data).toBeNull();
  });

  it('forged ids, unknown keys and ids of types without node are null with the same error, never a 5xx', async () => {
    const forged = [
      'x',
      '!!!',
      '',
      'A'.repeat(500),
      nodeId('Nope', 1),
      nodeId('User', 'abc'),
      nodeId('User', '01'),
      nodeId('User', 99999999999),
      nodeId('Company', 999999),
      nodeId('Event', 'E0000000-0000-4000-8000-000000000001'),
      nodeId('Event', 'not-a-uuid'),
      nodeId('SmartDirectory', 'not-a-uuid'),
      nodeId('InboxNotification', 'x:y'),
      nodeId('__proto__', 1),
      Buffer.from('User:1').toString('base64'),
    ];
    const body = await nodes(olivia, forged);
    // The same document again runs compiled by graphql-jit, which must answer alike.
    expect(await nodes(olivia, forged)).toEqual(body);
    expect(body.data).toEqual({ nodes: forged.map(() => null) });
    expect(errorsOf(body)).toEqual(forged.map((_f, i) => [i, 'WSRecordNotFoundException', 'id']));
    const one = await olivia.gql('query($id: ID!){ node(id: $id){ id } }', { id: 'x' });
    expect(one.status).toBe(200);
    expect(one.body).toEqual({
      data: { node: null },
      errors: [
        {
          message: 'The record was not found.',
          path: ['node'],
          locations: [{ line: 1, column: 18 }],
          extensions: { code: 'WSRecordNotFoundException', field: 'id' },
        },
      ],
    });
  });

  it('without a credential, node and nodes are refused as every root operation is', async () => {
    const res = await t.gql('query($id: ID!){ node(id: $id){ id } }', { id: nodeId('Company', NORTHWIND) });
    expect(res.body.data).toEqual({ node: null });
    expect(res.body.errors!.map((e: any) => e.extensions.code)).toEqual(['WSInvalidAuthTokenException']);
  });

  it('more than 100 ids are refused before anything is read', async () => {
    const res = await olivia.gql('query($ids:[ID!]!){ nodes(ids:$ids){ id } }', { ids: Array(101).fill(nodeId('User', OLIVIA)) });
    expect(res.body.data).toBeNull();
    expect(res.body.errors!.map((e: any) => [e.extensions.code, e.extensions.field])).toEqual([['WSLimitExceededException', 'ids']]);
  });

  it('nodes of 50 ids runs as many statements as nodes of 5', async () => {
    const mixed = (n: number) =>
      Array.from(
        { length: n },
        (_v, i) =>
          [
            nodeId('Company', NORTHWIND + (i % 3)),
            nodeId('Event', DEMO.eventUuidOf((i % 8) + 1)),
            nodeId('SmartEntry', WELCOME_PACK + (i % 4)),
            nodeId('SmartLibrary', LIBRARY + (i % 2)),
            nodeId('SmartDirectory', i % 2 ? DEMO.directories.staff : DEMO.directories.cardiology),
            nodeId('Address', i % 2 ? DEMO.addresses.oliviaWork : DEMO.addresses.oliviaPersonal),
            nodeId('InboxNotification', `${OLIVIA}:${oliviaInboxItem.notificationId + i}`),
            nodeId('User', OLIVIA),
          ][i % 8],
      );
    // Warm the caller's session so that neither count includes signing in.
    await nodes(olivia, mixed(8));
    const small = await t.countStatements(() => nodes(olivia, mixed(8)));
    const large = await t.countStatements(() => nodes(olivia, mixed(50)));
    expect(large).toBe(small);
    expect(small).toBeLessThanOrEqual(20);
  });
});
