// Global object identification (src/graphql/node.ts): every record type with identity has an
// opaque, stable `id` (base64url of its type and key); node(id:) and nodes(ids:) fetch records by
// it with the rule of the root operation that hands them out. Another user's record, an unknown
// one and a forged id all answer null with WSRecordNotFoundException naming `id`, never data and
// never a 5xx; nodes of 50 ids runs as many statements as nodes of 5.
import {
  CARA,
  createContact,
  createContactAddress,
  createDirectory,
  createManagedNotifications,
  createQrCode,
  DEMO,
  ENTITY_FIELDS,
  NORTHWIND,
  nodeId,
  OLIVIA,
  PAT,
  useDemoApp,
  type Client,
} from '../kit';

const { t, olivia, pat, cara } = useDemoApp();
const { hidden } = DEMO.companies;
const { smartLibId: LIBRARY, welcomePackEntryId: WELCOME_PACK } = DEMO.library;

const NODE_FIELDS = `__typename id
  ${ENTITY_FIELDS}
  ... on Address { uuid name }
  ... on InboxNotification { notificationId message }
  ... on SmartFile { smartFileId smartFileType }
  ... on SupportGroupQrCode { qrCodeId teamId }
  ... on UserEvent { eventInviteUUID eventUUID }
  ... on Connection { userId companyId status }
  ... on SentNotification { notificationId companyId }
  ... on ScheduledNotification { notificationScheduleId companyId }
  ... on EConsent { consentUUID consentTypeCode consentName consentGiven }
  ... on DirectoryContact { contactId displayName email mobile addresses { id uuid } }`;

async function nodes(who: Client, ids: string[]) {
  const res = await who.gql(`query($ids:[ID!]!){ nodes(ids:$ids){ ${NODE_FIELDS} } }`, { ids });
  expect(res.status).toBe(200);
  return res.body;
}

/** The errors of an answer as [index in nodes, identifier, field], in index order. */
const errorsOf = (body: any) =>
  (body.errors ?? []).map((e: any) => [e.path[1], e.extensions.errorCode, e.extensions.field]).sort((a: any[], b: any[]) => a[0] - b[0]);

let oliviaInboxItem: { id: string; notificationId: number; message: string };
/** The welcome pack's files, original then tile (Olivia publishes to its library; Pat reads none of it). */
let files: { original: number; tile: number };
/** A QR code of a Northwind team Olivia is a member of; Northwind's admin Cara reads it too. */
let qrCodeId: number;
/** Olivia's contact records in the demo directories. */
let contactIds: { staff: number; cardiology: number };

beforeAll(async () => {
  const res = await olivia.gql(
    `{ me { notifications(first: 1) { edges { node { id notificationId message } } } } smartEntry(smartEntryId: ${WELCOME_PACK}) { smartFiles { smartFileId } } }`,
  );
  expect(res.status).toBe(200);
  oliviaInboxItem = res.body.data.me.notifications.edges[0].node;
  const [original, tile] = res.body.data.smartEntry.smartFiles.map((f: { smartFileId: number }) => f.smartFileId);
  files = { original, tile };
  qrCodeId = await createQrCode(t, NORTHWIND, [OLIVIA]);
  const contacts = await olivia.gql(`{
    staff: smartDirectory(directoryUUID: "${DEMO.directories.staff}") { contacts { contactId } }
    cardiology: smartDirectory(directoryUUID: "${DEMO.directories.cardiology}") { contacts { contactId } }
  }`);
  expect(contacts.status).toBe(200);
  contactIds = { staff: contacts.body.data.staff.contacts[0].contactId, cardiology: contacts.body.data.cardiology.contacts[0].contactId };
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
          extensions: { code: 'NOT_FOUND', errorCode: 'WSRecordNotFoundException', field: 'id' },
        },
      ],
    });
  });

  it('without a credential, node and nodes are refused as every root operation is', async () => {
    const res = await t.gql('query($id: ID!){ node(id: $id){ id } }', { id: nodeId('Company', NORTHWIND) });
    expect(res.body.data).toEqual({ node: null });
    expect(res.body.errors!.map((e: any) => [e.extensions.code, e.extensions.errorCode])).toEqual([
      ['UNAUTHENTICATED', 'WSInvalidAuthTokenException'],
    ]);
  });

  it('more than 100 ids are refused before anything is read', async () => {
    const res = await olivia.gql('query($ids:[ID!]!){ nodes(ids:$ids){ id } }', { ids: Array(101).fill(nodeId('User', OLIVIA)) });
    expect(res.body.data).toBeNull();
    expect(res.body.errors!.map((e: any) => [e.extensions.code, e.extensions.errorCode, e.extensions.field])).toEqual([
      ['BAD_USER_INPUT', 'WSLimitExceededException', 'ids'],
    ]);
  });

  it('nodes of 50 ids runs as many statements as nodes of 34', async () => {
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
            nodeId('SmartFile', i % 2 ? files.original : files.tile),
            nodeId('SupportGroupQrCode', qrCodeId + (i % 2)),
            nodeId('UserEvent', DEMO.inviteUuidOf((i % 8) + 1)),
            nodeId('Connection', `${OLIVIA}:${i % 2 ? NORTHWIND : DEMO.companies.pending}`),
            nodeId('SentNotification', DEMO.sentIds.welcome + (i % 4)),
            nodeId('ScheduledNotification', DEMO.scheduleId + (i % 2)),
            nodeId('EConsent', i % 2 ? DEMO.consents.northwindProfile : DEMO.directoryConsents.cardiology),
            nodeId('DirectoryContact', i % 2 ? contactIds.staff : contactIds.cardiology),
            nodeId('Address', i % 2 ? DEMO.contactAddresses.staff : DEMO.contactAddresses.cardiology),
          ][i % 17],
      );
    // Warm the caller's session so that neither count includes signing in.
    await nodes(olivia, mixed(34));
    // 34 ids hold every type with both of its keys (the one of an event consent and of a directory's, of a profile and a contact address).
    const small = await t.countStatements(() => nodes(olivia, mixed(34)));
    const large = await t.countStatements(() => nodes(olivia, mixed(50)));
    expect(large).toBe(small);
    expect(small).toBeLessThanOrEqual(30);
  });
});

describe('files, QR codes, invitations, connections and sent notifications', () => {
  const WALL = `cId: ${NORTHWIND}, version: 1`;
  const LIST = `version: 1, broadcastType: "GT", companyId: ${NORTHWIND}`;
  const ids = () => ({
    original: nodeId('SmartFile', files.original),
    tile: nodeId('SmartFile', files.tile),
    qr: nodeId('SupportGroupQrCode', qrCodeId),
    invitation: nodeId('UserEvent', DEMO.inviteUuidOf(1)),
    connection: nodeId('Connection', `${OLIVIA}:${NORTHWIND}`),
    sent: nodeId('SentNotification', DEMO.sentIds.welcome),
    scheduled: nodeId('ScheduledNotification', DEMO.scheduleId),
  });

  it('each carries the id of its type and key through every field that hands it out', async () => {
    const mine = await olivia.gql(`{
      smartFile(smartFileId: ${files.tile}) { id smartFileId }
      smartEntry(smartEntryId: ${WELCOME_PACK}) { smartFiles { id smartFileId } }
      supportGroupQrCode(qrCodeId: ${qrCodeId}) { id qrCodeId }
      userEvents(${WALL}) { id eventInviteUUID }
      me { events(first: 1) { edges { node { id eventInviteUUID } } } connections(status: "accepted") { id userId companyId } }
      myConnections(status: "accepted") { id userId companyId }
      northwind: node(id: "${nodeId('Company', NORTHWIND)}") { ... on Company { viewerConnection { id } } }
    }`);
    expect(mine.status).toBe(200);
    const { original, tile, qr, invitation, connection } = ids();
    const ownConnection = { id: connection, userId: OLIVIA, companyId: NORTHWIND };
    expect(mine.body.data).toEqual({
      smartFile: { id: tile, smartFileId: files.tile },
      smartEntry: {
        smartFiles: [
          { id: original, smartFileId: files.original },
          { id: tile, smartFileId: files.tile },
        ],
      },
      supportGroupQrCode: { id: qr, qrCodeId },
      userEvents: expect.arrayContaining([{ id: invitation, eventInviteUUID: DEMO.inviteUuidOf(1) }]),
      me: { events: { edges: [{ node: { id: invitation, eventInviteUUID: DEMO.inviteUuidOf(1) } }] }, connections: [ownConnection] },
      myConnections: [ownConnection],
      northwind: { viewerConnection: { id: connection } },
    });
    expect(mine.body.data.userEvents).toHaveLength(20);
    const managed = await cara.gql(`{
      sentNotifications(${LIST}, pageSize: 500) { id notificationId }
      sentScheduledNotifications(${LIST}) { id notificationScheduleId }
      companyConnections(companyId: ${NORTHWIND}, status: "accepted") { id userId }
    }`);
    expect(managed.status).toBe(200);
    expect(managed.body.data.sentNotifications).toContainEqual({ id: ids().sent, notificationId: DEMO.sentIds.welcome });
    expect(managed.body.data.sentScheduledNotifications).toEqual([{ id: ids().scheduled, notificationScheduleId: DEMO.scheduleId }]);
    expect(managed.body.data.companyConnections).toContainEqual({ id: connection, userId: OLIVIA });
  });

  it('node and nodes answer them to whoever those fields answer them, as their type', async () => {
    const { original, tile, qr, invitation, connection, sent, scheduled } = ids();
    // The original too: SmartEntry.smartFiles hands every reader the record (Query.smartFile's rule is the bytes').
    expect(await nodes(olivia, [original, tile, qr, invitation, connection])).toEqual({
      data: {
        nodes: [
          { __typename: 'SmartFile', id: original, smartFileId: files.original, smartFileType: 'OUF' },
          { __typename: 'SmartFile', id: tile, smartFileId: files.tile, smartFileType: 'THMB' },
          { __typename: 'SupportGroupQrCode', id: qr, qrCodeId, teamId: expect.any(Number) },
          { __typename: 'UserEvent', id: invitation, eventInviteUUID: DEMO.inviteUuidOf(1), eventUUID: DEMO.eventUuidOf(1) },
          { __typename: 'Connection', id: connection, userId: OLIVIA, companyId: NORTHWIND, status: 'accepted' },
        ],
      },
    });
    // Cara administers Northwind: its QR codes, its connections (companyConnections) and its notifications are hers to read.
    expect(await nodes(cara, [qr, connection, sent, scheduled, invitation])).toEqual({
      data: {
        nodes: [
          { __typename: 'SupportGroupQrCode', id: qr, qrCodeId, teamId: expect.any(Number) },
          { __typename: 'Connection', id: connection, userId: OLIVIA, companyId: NORTHWIND, status: 'accepted' },
          { __typename: 'SentNotification', id: sent, notificationId: DEMO.sentIds.welcome, companyId: NORTHWIND },
          { __typename: 'ScheduledNotification', id: scheduled, notificationScheduleId: DEMO.scheduleId, companyId: NORTHWIND },
          // An invitation is its invitee's alone, whoever manages the event.
          null,
        ],
      },
      errors: [
        expect.objectContaining({
          path: ['nodes', 4],
          extensions: { code: 'NOT_FOUND', errorCode: 'WSRecordNotFoundException', field: 'id' },
        }),
      ],
    });
  });

  it("another user's are null with WSRecordNotFoundException naming id, as the root fields refuse them", async () => {
    const all = Object.values(ids());
    const body = await nodes(pat, all);
    expect(body.data).toEqual({ nodes: all.map(() => null) });
    expect(errorsOf(body)).toEqual(all.map((_id, i) => [i, 'WSRecordNotFoundException', 'id']));
    // Olivia manages no company's notifications, and reads no other user's connection.
    const caras = await nodes(olivia, [ids().sent, ids().scheduled, nodeId('Connection', `${CARA}:${NORTHWIND}`)]);
    expect(caras.data).toEqual({ nodes: [null, null, null] });
    expect(errorsOf(caras)).toEqual([0, 1, 2].map((i) => [i, 'WSRecordNotFoundException', 'id']));
    // The root fields agree.
    const root = await pat.gql(`{ supportGroupQrCode(qrCodeId: ${qrCodeId}) { qrCodeId } }`);
    expect(root.body.errors!.map((e: any) => e.extensions.errorCode)).toEqual(['WSRecordNotFoundException']);
    const list = await olivia.gql(`{ sentNotifications(${LIST}) { notificationId } }`);
    expect(list.body.errors!.map((e: any) => e.extensions.errorCode)).toEqual(['WSInsufficientPrivilegesException']);
  });

  it("a manager of another company's notifications reads that company's records only", async () => {
    const other = await createManagedNotifications(t, PAT);
    const theirs = [nodeId('SentNotification', other.sentId), nodeId('ScheduledNotification', other.scheduleId)];
    expect((await nodes(pat, theirs)).data.nodes).toEqual([
      { __typename: 'SentNotification', id: theirs[0], notificationId: other.sentId, companyId: other.companyId },
      { __typename: 'ScheduledNotification', id: theirs[1], notificationScheduleId: other.scheduleId, companyId: other.companyId },
    ]);
    const body = await nodes(cara, theirs);
    expect(body.data).toEqual({ nodes: [null, null] });
    expect(errorsOf(body)).toEqual([0, 1].map((i) => [i, 'WSRecordNotFoundException', 'id']));
  });

  it("an event's notifications are null once the event is cancelled, as its list refuses them; a scheduled one until it is processed", async () => {
    const [row] = await t.sql('select event_uuid from sent_notification where notification_id = ?', [DEMO.sentIds.event]);
    const eventId = nodeId('SentNotification', DEMO.sentIds.event);
    expect((await nodes(cara, [eventId])).data.nodes).toEqual([
      { __typename: 'SentNotification', id: eventId, notificationId: DEMO.sentIds.event, companyId: NORTHWIND },
    ]);
    await t.sql(`update event set status = 'C' where event_uuid = ?`, [row.event_uuid]);
    try {
      const body = await nodes(cara, [eventId]);
      expect(body.data).toEqual({ nodes: [null] });
      expect(errorsOf(body)).toEqual([[0, 'WSRecordNotFoundException', 'id']]);
      const list = await cara.gql(
        `{ sentNotifications(version: 1, broadcastType: "GE", eventUUID: "${row.event_uuid}") { notificationId } }`,
      );
      expect(list.body.errors!.map((e: any) => e.extensions.errorCode)).toEqual(['WSEventCancelledException']);
    } finally {
      await t.sql(`update event set status = 'A' where event_uuid = ?`, [row.event_uuid]);
    }
    await t.sql(`update scheduled_notification set status = 'PROCESSING' where notification_schedule_id = ?`, [DEMO.scheduleId]);
    try {
      const body = await nodes(cara, [ids().scheduled]);
      expect(body.data).toEqual({ nodes: [null] });
      expect((await cara.gql(`{ sentScheduledNotifications(${LIST}) { notificationScheduleId } }`)).body).toEqual({
        data: { sentScheduledNotifications: [] },
      });
    } finally {
      await t.sql(`update scheduled_notification set status = 'SENT' where notification_schedule_id = ?`, [DEMO.scheduleId]);
    }
  });
});

describe('consents, directory contacts and the addresses of contact records', () => {
  const { staff: STAFF, cardiology: CARDIOLOGY } = DEMO.directories;
  const CONSENT = '__typename id consentUUID consentTypeCode consentName consentGiven';
  const CONTACT = '__typename id contactId displayName email mobile addresses { id uuid }';
  const ADDRESS = '__typename id uuid name';
  const ids = () => ({
    company: nodeId('EConsent', DEMO.consents.northwindProfile),
    event: nodeId('EConsent', DEMO.consents.eventAttendance),
    directory: nodeId('EConsent', DEMO.directoryConsents.staff),
    staffContact: nodeId('DirectoryContact', contactIds.staff),
    cardiologyContact: nodeId('DirectoryContact', contactIds.cardiology),
    staffAddress: nodeId('Address', DEMO.contactAddresses.staff),
    cardiologyAddress: nodeId('Address', DEMO.contactAddresses.cardiology),
  });
  /** What the fields that hand these records out answer Olivia, with the selections NODE_FIELDS makes of them. */
  const fieldAnswers = async () => {
    const res = await olivia.gql(`{
      company: eConsents(type: "C", companyId: ${NORTHWIND}) { ${CONSENT} }
      event: eConsents(type: "E", eventUUID: "${DEMO.eventUuid}") { ${CONSENT} }
      staff: smartDirectory(directoryUUID: "${STAFF}") { consents { ${CONSENT} } contacts { ${CONTACT} } }
      cardiology: smartDirectory(directoryUUID: "${CARDIOLOGY}") { contacts { ${CONTACT} } }
      staffAddresses: directoryContactAddresses(directoryUUID: "${STAFF}") { ${ADDRESS} }
      cardiologyAddresses: directoryContactAddresses(directoryUUID: "${CARDIOLOGY}") { ${ADDRESS} }
    }`);
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    return res.body.data;
  };

  it('each carries the id of its type and key through every field that hands it out', async () => {
    const data = await fieldAnswers();
    const { company, event, directory, staffContact, cardiologyContact, staffAddress, cardiologyAddress } = ids();
    expect(data.company.map((c: any) => c.id)).toEqual([company, nodeId('EConsent', DEMO.consents.northwindNews)]);
    expect(data.event.map((c: any) => c.id)).toEqual([event, nodeId('EConsent', DEMO.consents.eventPhotos)]);
    expect(data.staff.consents.map((c: any) => c.id)).toEqual([directory]);
    expect(data.staff.contacts).toEqual([
      expect.objectContaining({ id: staffContact, addresses: [{ id: staffAddress, uuid: DEMO.contactAddresses.staff }] }),
    ]);
    expect(data.cardiology.contacts).toEqual([
      expect.objectContaining({ id: cardiologyContact, addresses: [{ id: cardiologyAddress, uuid: DEMO.contactAddresses.cardiology }] }),
    ]);
    expect(data.staffAddresses.map((a: any) => a.id)).toEqual([staffAddress]);
    expect(data.cardiologyAddresses.map((a: any) => a.id)).toEqual([cardiologyAddress]);
  });

  it('node and nodes answer each to its reader exactly as those fields do, hidden fields and all', async () => {
    const data = await fieldAnswers();
    const all = Object.values(ids());
    expect(await nodes(olivia, all)).toEqual({
      data: {
        nodes: [
          data.company[0],
          data.event[0],
          data.staff.consents[0],
          data.staff.contacts[0],
          data.cardiology.contacts[0],
          data.staffAddresses[0],
          data.cardiologyAddresses[0],
        ],
      },
    });
    // The answers are the records' own: a given consent, a contact's shown fields, an address's name.
    expect(data.staff.consents[0]).toMatchObject({ consentTypeCode: 'DS', consentGiven: true });
    expect(data.staff.contacts[0]).toMatchObject({ contactId: contactIds.staff, email: 'olivia@demo.example' });
    expect(data.staffAddresses[0].name).toEqual(expect.any(String));
  });

  it("another user reads company and event consents, as Query.eConsents shows them to everyone; a directory's records are null", async () => {
    const { company, event, directory, staffContact, cardiologyContact, staffAddress, cardiologyAddress } = ids();
    const body = await nodes(pat, [company, event, directory, staffContact, cardiologyContact, staffAddress, cardiologyAddress]);
    const listed = await pat.gql(`{ eConsents(type: "C", companyId: ${NORTHWIND}) { ${CONSENT} } }`);
    expect(listed.body.data.eConsents[0]).toMatchObject({ id: company, consentGiven: false });
    expect(body.data.nodes).toEqual([
      listed.body.data.eConsents[0],
      expect.objectContaining({ __typename: 'EConsent', id: event, consentGiven: false }),
      ...Array(5).fill(null),
    ]);
    expect(errorsOf(body)).toEqual([2, 3, 4, 5, 6].map((i) => [i, 'WSRecordNotFoundException', 'id']));
    // The root fields agree: Pat opens neither directory, nor has contact addresses in it.
    const root = await pat.gql(`{ smartDirectory(directoryUUID: "${STAFF}") { directoryUUID } }`);
    expect(root.body.errors!.map((e: any) => e.extensions.errorCode)).toEqual(['WSUserNotInSmartDirectoryException']);
    const addresses = await pat.gql(`{ directoryContactAddresses(directoryUUID: "${STAFF}") { uuid } }`);
    expect(addresses.body.errors!.map((e: any) => e.extensions.errorCode)).toEqual(['WSUserNotInSmartDirectoryException']);
  });

  it('a contact and its addresses follow the directory type for each reader; an unconsented record is no one’s', async () => {
    const [member, other, unconsented, admin] = [await t.newUser(), await t.newUser(), await t.newUser(), await t.newUser()];
    const d = await createDirectory(t.orm, {
      type: 'PARTIALLY_RESTRICTED',
      members: [member.uId, other.uId, unconsented.uId],
      admins: [admin.uId],
      fieldIds: [3, 9],
    });
    const record: Record<string, number> = {};
    const address: Record<string, string> = {};
    for (const [name, u] of Object.entries({ member, other, unconsented, admin })) {
      const c = await createContact(t.orm, d.uuid, u.uId, { consent: name !== 'unconsented', data: { email: `${u.uId}@x.example` } });
      record[name] = c.contactId;
      address[name] = (await createContactAddress(t.orm, c.contactId, { name: `${name} office` })).uuid;
    }
    const names = ['member', 'other', 'unconsented', 'admin'];
    const askedIds = [...names.map((n) => nodeId('DirectoryContact', record[n])), ...names.map((n) => nodeId('Address', address[n]))];
    /** What node answers the reader, and what the directory's fields answer them, in the same order. */
    const both = async (reader: Client) => {
      const listed = await reader.gql(`query($d: String!) { smartDirectory(directoryUUID: $d) { contacts { ${CONTACT} } } }`, {
        d: d.uuid,
      });
      expect(listed.body.errors).toBeUndefined();
      const contacts = names.map((n) => listed.body.data.smartDirectory.contacts.find((c: any) => c.contactId === record[n]) ?? null);
      // An address is answered where DirectoryContact.addresses lists it.
      const addresses = names.map((n, i) =>
        contacts[i]?.addresses.length
          ? { __typename: 'Address', id: nodeId('Address', address[n]), uuid: address[n], name: `${n} office` }
          : null,
      );
      return { answered: (await nodes(reader, askedIds)).data.nodes, expected: [...contacts, ...addresses] };
    };

    // A member sees the others' names only, no e-mail and no address; the admin sees every consented contact whole.
    const asMember = await both(member);
    expect(asMember.answered).toEqual(asMember.expected);
    expect(asMember.answered.map((n: any) => n && [n.email, n.addresses?.length ?? n.uuid])).toEqual([
      [`${member.uId}@x.example`, 1],
      [null, 0],
      null,
      [null, 0],
      [undefined, address.member],
      null,
      null,
      null,
    ]);
    const asAdmin = await both(admin);
    expect(asAdmin.answered).toEqual(asAdmin.expected);
    expect(asAdmin.answered.map((n: any) => n !== null)).toEqual([true, true, false, true, true, true, false, true]);

    // Fully restricted: a member sees only their own record.
    await t.sql(`update smart_directory set directory_type = 'FULLY_RESTRICTED' where directory_uuid = ?`, [d.uuid]);
    const restricted = await both(member);
    expect(restricted.answered).toEqual(restricted.expected);
    expect(restricted.answered.map((n: any) => n !== null)).toEqual([true, false, false, false, true, false, false, false]);
    // The unconsented member opens nothing: every record is null, with the same error.
    const body = await nodes(unconsented, askedIds);
    expect(body.data.nodes).toEqual(askedIds.map(() => null));
    expect(errorsOf(body)).toEqual(askedIds.map((_id, i) => [i, 'WSRecordNotFoundException', 'id']));
  });
});
