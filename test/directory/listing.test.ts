// The GraphQL side of a directory: its contacts with their addresses (batched), who sees
// what by directory type, joining a directory, and SmartDirectory as a federation entity.
import crypto from 'node:crypto';
import { createContact, createContactAddress, createDirectory, createSystemToken, DEMO, NORTHWIND, OLIVIA, useTestApp } from '../kit';

const t = useTestApp();
const olivia = t.as(OLIVIA);

async function users(n: number) {
  const list = [];
  for (let i = 0; i < n; i++) {
    list.push(
      await t.newUser({
        firstName: `F${String(i).padStart(3, '0')}`,
        lastName: `L${String(99 - i).padStart(3, '0')}`,
        email: `l${crypto.randomUUID()}@t.example`,
      }),
    );
  }
  return list;
}

const CONTACTS = `query($d: String!) { smartDirectory(directoryUUID: $d) {
  directoryUUID directoryName directoryType directoryOrder syncUp active companyId
  fields { fieldId fieldCode } consents { consentTypeCode consentName consentRequired consentGiven directoryUUID }
  contacts { uId displayName firstName lastName email mobile addresses { uuid typeCode } }
} }`;

describe('listing contacts', () => {
  it('when Olivia opens the demo staff directory, then it shows its fields, its consent (given) and her contact with her work address', async () => {
    const res = await olivia.gql(CONTACTS, { d: DEMO.directories.staff });
    expect(res.body).toEqual({
      data: {
        smartDirectory: {
          directoryUUID: DEMO.directories.staff,
          directoryName: 'Northwind staff directory',
          directoryType: 'UNRESTRICTED',
          directoryOrder: 'FL',
          syncUp: true,
          active: true,
          companyId: NORTHWIND,
          fields: [
            { fieldId: 1, fieldCode: 'firstName' },
            { fieldId: 2, fieldCode: 'lastName' },
            { fieldId: 3, fieldCode: 'email' },
            { fieldId: 4, fieldCode: 'mobile' },
            { fieldId: 6, fieldCode: 'jobTitle' },
            { fieldId: 7, fieldCode: 'department' },
            { fieldId: 9, fieldCode: 'addresses' },
          ],
          consents: [
            {
              consentTypeCode: 'DS',
              consentName: 'Share my contact details',
              consentRequired: true,
              consentGiven: true,
              directoryUUID: DEMO.directories.staff,
            },
          ],
          contacts: [
            {
              uId: OLIVIA,
              displayName: 'Olivia Nguyen',
              firstName: 'Olivia',
              lastName: 'Nguyen',
              email: 'olivia@demo.example',
              mobile: '+61 400 000 201',
              addresses: [{ uuid: DEMO.contactAddresses.staff, typeCode: 'W' }],
            },
          ],
        },
      },
    });
  });

  it('when a directory has 1 or 100 contacts with addresses, then the listing costs the same number of SQL statements', async () => {
    const members = await users(100);
    const dir = await createDirectory(t.orm, { members: members.map((m) => m.uId), fieldIds: [3, 9] });
    for (const m of members.slice(0, 1)) {
      const c = await createContact(t.orm, dir.uuid, m.uId);
      await createContactAddress(t.orm, c.contactId, { typeCode: 'W' });
      await createContactAddress(t.orm, c.contactId, { typeCode: 'P' });
    }
    const run = async () => {
      let res: any;
      const n = await t.countStatements(async () => {
        res = await members[0].gql(CONTACTS, { d: dir.uuid });
      });
      expect(res.body.errors).toBeUndefined();
      return { n, contacts: res.body.data.smartDirectory.contacts };
    };
    const one = await run();
    expect(one.contacts).toHaveLength(1);
    for (const m of members.slice(1)) {
      const c = await createContact(t.orm, dir.uuid, m.uId);
      await createContactAddress(t.orm, c.contactId, { typeCode: 'W' });
      await createContactAddress(t.orm, c.contactId, { typeCode: 'O' });
    }
    const hundred = await run();
    expect(hundred.contacts).toHaveLength(100);
    expect(hundred.contacts.every((c: any) => c.addresses.length === 2)).toBe(true);
    expect(hundred.n).toBe(one.n);
  });

  it('when contacts have not given the required consent, then they are not listed', async () => {
    const [a, b] = await users(2);
    const dir = await createDirectory(t.orm, { members: [a.uId, b.uId] });
    await createContact(t.orm, dir.uuid, a.uId);
    await createContact(t.orm, dir.uuid, b.uId, { consent: false });
    const res = await a.gql(CONTACTS, { d: dir.uuid });
    expect(res.body.data.smartDirectory.contacts.map((c: any) => c.uId)).toEqual([a.uId]);
  });

  it('when the order is LF, then names read "Last, First" and sort by last name', async () => {
    const [a, b] = await users(2);
    const dir = await createDirectory(t.orm, { members: [a.uId, b.uId], order: 'LF' });
    await createContact(t.orm, dir.uuid, a.uId, { data: { firstName: 'Zoe', lastName: 'Adams' } });
    await createContact(t.orm, dir.uuid, b.uId, { data: { firstName: 'Amy', lastName: 'Brown' } });
    const res = await a.gql(CONTACTS, { d: dir.uuid });
    expect(res.body.data.smartDirectory.contacts.map((c: any) => c.displayName)).toEqual(['Adams, Zoe', 'Brown, Amy']);
  });

  describe('who sees what', () => {
    async function directoryOf(type: 'UNRESTRICTED' | 'PARTIALLY_RESTRICTED' | 'FULLY_RESTRICTED') {
      const [me, other, admin] = await users(3);
      const dir = await createDirectory(t.orm, { members: [me.uId, other.uId], admins: [admin.uId], type, fieldIds: [3, 9] });
      for (const u of [me, other, admin]) {
        const c = await createContact(t.orm, dir.uuid, u.uId, { data: { email: `${u.uId}@x.example`, mobile: '555' } });
        await createContactAddress(t.orm, c.contactId);
      }
      const seen = async (viewer: typeof me) => {
        const res = await viewer.gql(CONTACTS, { d: dir.uuid });
        return Object.fromEntries(
          res.body.data.smartDirectory.contacts.map((c: any) => [
            c.uId,
            { email: c.email, mobile: c.mobile, addresses: c.addresses.length },
          ]),
        );
      };
      return { me, other, admin, seen };
    }

    it('UNRESTRICTED: every member sees every contact with the fields shown (mobile is not shown here)', async () => {
      const d = await directoryOf('UNRESTRICTED');
      expect(await d.seen(d.me)).toEqual({
        [d.me.uId]: { email: `${d.me.uId}@x.example`, mobile: null, addresses: 1 },
        [d.other.uId]: { email: `${d.other.uId}@x.example`, mobile: null, addresses: 1 },
        [d.admin.uId]: { email: `${d.admin.uId}@x.example`, mobile: null, addresses: 1 },
      });
    });

    it('PARTIALLY_RESTRICTED: members see others by name only; admins see everything', async () => {
      const d = await directoryOf('PARTIALLY_RESTRICTED');
      expect(await d.seen(d.me)).toEqual({
        [d.me.uId]: { email: `${d.me.uId}@x.example`, mobile: null, addresses: 1 },
        [d.other.uId]: { email: null, mobile: null, addresses: 0 },
        [d.admin.uId]: { email: null, mobile: null, addresses: 0 },
      });
      expect((await d.seen(d.admin))[d.other.uId]).toEqual({ email: `${d.other.uId}@x.example`, mobile: null, addresses: 1 });
    });

    it('FULLY_RESTRICTED: members see only themselves; admins see everyone', async () => {
      const d = await directoryOf('FULLY_RESTRICTED');
      expect(Object.keys(await d.seen(d.me))).toEqual([String(d.me.uId)]);
      expect(Object.keys(await d.seen(d.admin)).sort()).toEqual([d.me.uId, d.other.uId, d.admin.uId].map(String).sort());
    });
  });

  it('when an outsider asks, then the directory chain refuses (WSUserNotInSmartDirectoryException)', async () => {
    const [outsider] = await users(1);
    const res = await outsider.gql(CONTACTS, { d: DEMO.directories.staff });
    expect(res.body.errors![0].extensions).toEqual({ code: 'FORBIDDEN', errorCode: 'WSUserNotInSmartDirectoryException' });
  });
});

describe('createDirectoryContactRecord', () => {
  const CREATE =
    'mutation($d: String!) { createDirectoryContactRecord(directoryUUID: $d) { uId displayName email mobile addresses { uuid } } }';

  it('when a member joins a directory filled from profiles, then the record carries the profile; a second join is WSAlreadyExistsException', async () => {
    const u = await t.newUser({ firstName: 'Joy', lastName: 'Park', primaryMobile: '0400' });
    const dir = await createDirectory(t.orm, { members: [u.uId], fieldIds: [3, 4, 9] });
    await t.sql('update smart_directory set auto_populate_from_profile = true where directory_uuid = ?', [dir.uuid]);
    const res = await u.gql(CREATE, { d: dir.uuid });
    expect(res.body).toEqual({
      data: { createDirectoryContactRecord: { uId: u.uId, displayName: 'Joy Park', email: u.user.email, mobile: '0400', addresses: [] } },
    });
    const again = await u.gql(CREATE, { d: dir.uuid });
    expect(again.body.errors![0].extensions).toEqual({ code: 'CONFLICT', errorCode: 'WSAlreadyExistsException' });
    const rows = await t.sql('select count(*)::int as n from contact_record where user_id = ?', [u.uId]);
    expect(rows).toEqual([{ n: 1 }]);
  });

  it('when the directory is not filled from profiles, then only the names are copied; an outsider cannot join', async () => {
    const u = await t.newUser({ firstName: 'Kai', lastName: 'Moe' });
    const dir = await createDirectory(t.orm, { members: [u.uId] });
    const res = await u.gql(CREATE, { d: dir.uuid });
    expect(res.body.data.createDirectoryContactRecord).toMatchObject({ displayName: 'Kai Moe', email: null });
    const [outsider] = await users(1);
    expect((await outsider.gql(CREATE, { d: dir.uuid })).body.errors![0].extensions.errorCode).toBe('WSUserNotInSmartDirectoryException');
  });
});

describe('SmartDirectory as a federation entity', () => {
  const ENTITIES =
    'query($r: [_Any!]!) { _entities(representations: $r) { ... on SmartDirectory { directoryUUID directoryName contacts { uId } } } }';

  it('when a member resolves the reference, then it resolves; an outsider is refused', async () => {
    const r = [{ __typename: 'SmartDirectory', directoryUUID: DEMO.directories.cardiology }];
    const res = await olivia.gql(ENTITIES, { r });
    expect(res.body).toEqual({
      data: {
        _entities: [
          { directoryUUID: DEMO.directories.cardiology, directoryName: 'Northwind cardiology network', contacts: [{ uId: OLIVIA }] },
        ],
      },
    });
    const [outsider] = await users(1);
    const refused = await outsider.gql(ENTITIES, { r });
    expect(refused.body.errors![0].extensions.errorCode).toBe('WSUserNotInSmartDirectoryException');
  });

  it('when a trusted graph client resolves references, then any directory resolves, unknown ones are null', async () => {
    const raw = await createSystemToken(t.orm, ['federation'], { name: 'Gateway' });
    const res = await t.gql(
      ENTITIES,
      {
        r: [
          { __typename: 'SmartDirectory', directoryUUID: DEMO.directories.staff },
          { __typename: 'SmartDirectory', directoryUUID: crypto.randomUUID() },
        ],
      },
      { 'x-api-key': raw },
    );
    expect(res.body.data._entities[0]).toMatchObject({ directoryName: 'Northwind staff directory', contacts: [{ uId: OLIVIA }] });
    expect(res.body.data._entities[1]).toBeNull();
  });

  it('the SDL marks SmartDirectory as keyed by directoryUUID', async () => {
    const res = await t.gql('{ _service { sdl } }');
    expect(res.body.data._service.sdl).toMatch(/type SmartDirectory implements Node @key\(fields: "directoryUUID"\)/);
  });
});
