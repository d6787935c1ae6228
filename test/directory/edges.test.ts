// The graph's edges to directories (issue 19): User.smartDirectories and Company.smartDirectories
// (the directories the caller can open with Query.smartDirectory, contacts as that query shows
// them) and SmartDirectory.company (a company as the caller may see one). Batched: the statements
// do not grow with the directories or the companies.
import crypto from 'node:crypto';
import {
  connect,
  createCompany,
  createContact,
  createContactAddress,
  createDirectory,
  createSystemToken,
  DEMO,
  NORTHWIND,
  OLIVIA,
  useTestApp,
  type NewUser,
} from '../kit';

const t = useTestApp();
const olivia = t.as(OLIVIA);
const { staff: STAFF, cardiology: CARDIOLOGY } = DEMO.directories;

/** What a directory shows, as both the edges and Query.smartDirectory are asked for it. */
const DIRECTORY = `directoryUUID directoryName directoryType directoryOrder syncUp autoPopulateFromProfile active companyId teamId
  fields { fieldId } consents { consentName consentRequired consentGiven }
  contacts { uId displayName firstName lastName email mobile jobTitle department addresses { uuid } }`;

const ROOT = `query($d: String!) { smartDirectory(directoryUUID: $d) { ${DIRECTORY} } }`;

/** Query.smartDirectory's answer for the caller: the directory, or the error code. */
async function rootAnswer(who: { gql: NewUser['gql'] }, uuid: string): Promise<unknown> {
  const res = await who.gql(ROOT, { d: uuid });
  return res.body.data?.smartDirectory ?? res.body.errors![0].extensions.errorCode;
}

const entities = (who: { gql: NewUser['gql'] }, fragment: string, representations: object[]) =>
  who.gql(`query($r: [_Any!]!) { _entities(representations: $r) { ${fragment} } }`, { r: representations });

const companyRef = (companyId: number) => ({ __typename: 'Company', companyId });

describe('User.smartDirectories', () => {
  it('when Olivia asks, then her two Northwind directories by name, each as Query.smartDirectory shows it, with its company', async () => {
    const res = await olivia.gql(`{ me { smartDirectories { ${DIRECTORY} company { companyId companyName } } } }`);
    expect(res.body.errors).toBeUndefined();
    const directories = res.body.data.me.smartDirectories;
    expect(directories.map((d: any) => [d.directoryUUID, d.directoryName, d.directoryType, d.company])).toEqual([
      [CARDIOLOGY, 'Northwind cardiology network', 'PARTIALLY_RESTRICTED', { companyId: NORTHWIND, companyName: 'Northwind Health' }],
      [STAFF, 'Northwind staff directory', 'UNRESTRICTED', { companyId: NORTHWIND, companyName: 'Northwind Health' }],
    ]);
    expect(directories[1]).toEqual({
      directoryUUID: STAFF,
      directoryName: 'Northwind staff directory',
      directoryType: 'UNRESTRICTED',
      directoryOrder: 'FL',
      syncUp: true,
      autoPopulateFromProfile: true,
      active: true,
      companyId: NORTHWIND,
      teamId: DEMO.directoryTeam,
      fields: [{ fieldId: 1 }, { fieldId: 2 }, { fieldId: 3 }, { fieldId: 4 }, { fieldId: 6 }, { fieldId: 7 }, { fieldId: 9 }],
      consents: [{ consentName: 'Share my contact details', consentRequired: true, consentGiven: true }],
      contacts: [
        {
          uId: OLIVIA,
          displayName: 'Olivia Nguyen',
          firstName: 'Olivia',
          lastName: 'Nguyen',
          email: 'olivia@demo.example',
          mobile: '+61 400 000 201',
          jobTitle: null,
          department: null,
          addresses: [{ uuid: DEMO.contactAddresses.staff }],
        },
      ],
      company: { companyId: NORTHWIND, companyName: 'Northwind Health' },
    });
    for (const d of directories) {
      const { company, ...directory } = d;
      expect(directory).toEqual(await rootAnswer(olivia, d.directoryUUID));
    }
  });

  it('when a directory may not be opened (no consent, no record, not a member, inactive, feature off), then it never appears', async () => {
    const u = await t.newUser();
    const other = await t.newUser();
    const open = await createDirectory(t.orm, { members: [u.uId] });
    const noConsent = await createDirectory(t.orm, { members: [u.uId] });
    const noRecord = await createDirectory(t.orm, { members: [u.uId] });
    const notMember = await createDirectory(t.orm, { members: [other.uId] });
    const inactive = await createDirectory(t.orm, { members: [u.uId], active: false });
    const featureOff = await createDirectory(t.orm, { members: [u.uId], enabled: false });
    const optionalOnly = await createDirectory(t.orm, { members: [u.uId], consents: [false] });
    await createContact(t.orm, open.uuid, u.uId);
    await createContact(t.orm, noConsent.uuid, u.uId, { consent: false });
    await createContact(t.orm, notMember.uuid, other.uId);
    await createContact(t.orm, notMember.uuid, u.uId); // a record without team membership opens nothing
    await createContact(t.orm, inactive.uuid, u.uId);
    await createContact(t.orm, featureOff.uuid, u.uId);
    await createContact(t.orm, optionalOnly.uuid, u.uId, { consent: false });

    const all = [open, noConsent, noRecord, notMember, inactive, featureOff, optionalOnly];
    const roots = [];
    for (const d of all) {
      const answer = await rootAnswer(u, d.uuid);
      roots.push(typeof answer === 'string' ? answer : 'opens');
    }
    expect(roots).toEqual([
      'opens',
      'WSUserNotConsentedException',
      'WSUserContactNotFoundException',
      'WSUserNotInSmartDirectoryException',
      'WSSmartDirectoryInactiveException',
      'WSSmartDirectoryNotEnabledForCompanyException',
      'opens',
    ]);

    const mine = await u.gql('{ me { smartDirectories { directoryUUID } } }');
    expect(mine.body.data.me.smartDirectories.map((d: any) => d.directoryUUID).sort()).toEqual([open.uuid, optionalOnly.uuid].sort());

    const byCompany = await entities(
      u,
      '... on Company { companyId smartDirectories { directoryUUID } }',
      all.map((d) => companyRef(d.companyId)),
    );
    expect(byCompany.body).toEqual({
      data: {
        _entities: all.map((d) => ({
          companyId: d.companyId,
          smartDirectories: d === open || d === optionalOnly ? [{ directoryUUID: d.uuid }] : [],
        })),
      },
    });
    // The other member holds a record in notMember; it is theirs only.
    const theirs = await other.gql('{ me { smartDirectories { directoryUUID } } }');
    expect(theirs.body).toEqual({ data: { me: { smartDirectories: [{ directoryUUID: notMember.uuid }] } } });
  });

  it.each(['PARTIALLY_RESTRICTED', 'FULLY_RESTRICTED'] as const)(
    'when the directory is %s, then its contacts through the edges are those Query.smartDirectory shows, for a member and a team admin',
    async (type) => {
      const [me, other, admin] = [await t.newUser(), await t.newUser(), await t.newUser()];
      const d = await createDirectory(t.orm, { members: [me.uId, other.uId], admins: [admin.uId], type, fieldIds: [3, 9] });
      for (const u of [me, other, admin]) {
        const c = await createContact(t.orm, d.uuid, u.uId, { data: { email: `${u.uId}@x.example` } });
        await createContactAddress(t.orm, c.contactId);
      }
      for (const viewer of [me, admin]) {
        const mine = await viewer.gql(`{ me { smartDirectories { ${DIRECTORY} } } }`);
        const atCompany = await entities(viewer, `... on Company { smartDirectories { ${DIRECTORY} } }`, [companyRef(d.companyId)]);
        const root = await rootAnswer(viewer, d.uuid);
        expect(mine.body).toEqual({ data: { me: { smartDirectories: [root] } } });
        expect(atCompany.body).toEqual({ data: { _entities: [{ smartDirectories: [root] }] } });
      }
      const seenByMember = (await rootAnswer(me, d.uuid)) as any;
      const seenByAdmin = (await rootAnswer(admin, d.uuid)) as any;
      if (type === 'FULLY_RESTRICTED') expect(seenByMember.contacts.map((c: any) => c.uId)).toEqual([me.uId]);
      else expect(seenByMember.contacts.find((c: any) => c.uId === other.uId)).toMatchObject({ email: null, addresses: [] });
      expect(seenByAdmin.contacts.find((c: any) => c.uId === other.uId)).toMatchObject({ email: `${other.uId}@x.example` });
    },
  );

  it("when the router's token resolves a user, then the profile resolves but their directories are refused (WSInsufficientPrivilegesException)", async () => {
    const router = t.with({ 'x-api-key': await createSystemToken(t.orm, ['federation'], { name: `router-${crypto.randomUUID()}` }) });
    const res = await entities(router, '... on User { uId smartDirectories { directoryUUID } }', [{ __typename: 'User', uId: OLIVIA }]);
    expect(res.body.data).toEqual({ _entities: [null] });
    expect(res.body.errors!.map((e: any) => [e.path, e.extensions.errorCode])).toEqual([
      [['_entities', 0, 'smartDirectories'], 'WSInsufficientPrivilegesException'],
    ]);
    const company = await entities(router, '... on Company { companyId smartDirectories { directoryUUID } }', [companyRef(NORTHWIND)]);
    expect(company.body).toEqual({ data: { _entities: [{ companyId: NORTHWIND, smartDirectories: [] }] } });
  });
});

describe('Company.smartDirectories', () => {
  it("when Olivia walks her connections, then Northwind shows her two directories and the pending company none; Pat's Northwind shows none", async () => {
    const res = await olivia.gql('{ me { connections { company { companyId smartDirectories { directoryUUID } } } } }');
    expect(res.body).toEqual({
      data: {
        me: {
          connections: [
            { company: { companyId: DEMO.companies.pending, smartDirectories: [] } },
            { company: { companyId: NORTHWIND, smartDirectories: [{ directoryUUID: CARDIOLOGY }, { directoryUUID: STAFF }] } },
          ],
        },
      },
    });
    const pat = await entities(t.as(DEMO.users.pat), '... on Company { companyId smartDirectories { directoryUUID } }', [
      companyRef(NORTHWIND),
    ]);
    expect(pat.body).toEqual({ data: { _entities: [{ companyId: NORTHWIND, smartDirectories: [] }] } });
  });
});

describe('SmartDirectory.company', () => {
  it('when the company is a hidden wall or inactive, then null for a member not tied to it; a connection to it shows it', async () => {
    const u = await t.newUser();
    const hidden = await createCompany(t.orm, { hiddenWall: true, smartDirectoryEnabled: true });
    const inactive = await createCompany(t.orm, { active: false, smartDirectoryEnabled: true });
    const visible = await createCompany(t.orm, { smartDirectoryEnabled: true });
    const dirs: { uuid: string; companyId: number }[] = [];
    for (const c of [hidden, inactive, visible]) {
      const d = await createDirectory(t.orm, { companyId: c.companyId, members: [u.uId] });
      await createContact(t.orm, d.uuid, u.uId);
      dirs.push(d);
    }
    const QUERY = '{ me { smartDirectories { directoryUUID companyId company { companyId companyName } } } }';
    const companyOf = async () => {
      const res = await u.gql(QUERY);
      expect(res.body.errors).toBeUndefined();
      const byUuid = new Map(res.body.data.me.smartDirectories.map((d: any) => [d.directoryUUID, [d.companyId, d.company]]));
      return dirs.map((d) => byUuid.get(d.uuid));
    };
    expect(await companyOf()).toEqual([
      [hidden.companyId, null],
      [inactive.companyId, null],
      [visible.companyId, { companyId: visible.companyId, companyName: visible.companyName }],
    ]);
    // Query.smartDirectory opens them all the same: only the company is out of reach.
    for (const d of dirs) expect(await rootAnswer(u, d.uuid)).toMatchObject({ directoryUUID: d.uuid, companyId: d.companyId });

    await connect(t.orm, u.uId, hidden.companyId, 'rejected');
    await connect(t.orm, u.uId, inactive.companyId, 'requested');
    expect(await companyOf()).toEqual([
      [hidden.companyId, { companyId: hidden.companyId, companyName: hidden.companyName }],
      [inactive.companyId, { companyId: inactive.companyId, companyName: inactive.companyName }],
      [visible.companyId, { companyId: visible.companyId, companyName: visible.companyName }],
    ]);
  });

  it("when the router's token resolves a directory of a hidden wall, then the directory resolves and its company is null", async () => {
    const router = t.with({ 'x-api-key': await createSystemToken(t.orm, ['federation'], { name: `router-${crypto.randomUUID()}` }) });
    const hidden = await createCompany(t.orm, { hiddenWall: true, smartDirectoryEnabled: true });
    const d = await createDirectory(t.orm, { companyId: hidden.companyId });
    const res = await entities(router, '... on SmartDirectory { directoryUUID company { companyId } }', [
      { __typename: 'SmartDirectory', directoryUUID: d.uuid },
      { __typename: 'SmartDirectory', directoryUUID: STAFF },
    ]);
    expect(res.body).toEqual({
      data: {
        _entities: [
          { directoryUUID: d.uuid, company: null },
          { directoryUUID: STAFF, company: { companyId: NORTHWIND } },
        ],
      },
    });
  });
});

describe('statements', () => {
  const EDGES = `{ me { smartDirectories { directoryUUID companyId company { companyName } fields { fieldId }
    consents { consentName consentGiven } contacts { uId email addresses { uuid } } } } }`;
  const UNDER_COMPANIES = `{ me { connections { company { companyId smartDirectories { directoryUUID company { companyId }
    contacts { uId addresses { uuid } } } } } } }`;

  /** A directory of a new company of the user's, with a second member, both with consented records and an address. */
  async function directoryOf(u: NewUser, other: NewUser) {
    const d = await createDirectory(t.orm, { members: [u.uId, other.uId], fieldIds: [3, 9] });
    for (const m of [u, other]) await createContactAddress(t.orm, (await createContact(t.orm, d.uuid, m.uId)).contactId);
    await connect(t.orm, u.uId, d.companyId, 'accepted');
    return d;
  }

  async function measured(u: NewUser, query: string) {
    let res: any;
    const statements = await t.countStatements(async () => (res = await u.gql(query)));
    expect(res.body.errors).toBeUndefined();
    return { statements, data: res.body.data };
  }

  it('when the user opens 1 or 12 directories of as many companies, then User.smartDirectories and Company.smartDirectories cost the same', async () => {
    const [u, other] = [await t.newUser(), await t.newUser()];
    await directoryOf(u, other);
    await u.gql('{ me { uId } }'); // caches the token
    const one = await measured(u, EDGES);
    const oneUnder = await measured(u, UNDER_COMPANIES);
    expect(one.data.me.smartDirectories).toHaveLength(1);
    expect(one.data.me.smartDirectories[0].contacts).toHaveLength(2);
    expect(oneUnder.data.me.connections[0].company.smartDirectories).toHaveLength(1);

    for (let i = 0; i < 11; i++) await directoryOf(u, other);
    const twelve = await measured(u, EDGES);
    const twelveUnder = await measured(u, UNDER_COMPANIES);
    expect(twelve.data.me.smartDirectories).toHaveLength(12);
    expect(twelve.data.me.smartDirectories.every((d: any) => d.contacts.length === 2 && d.company !== null)).toBe(true);
    expect(twelveUnder.data.me.connections).toHaveLength(12);
    expect(twelveUnder.data.me.connections.every((c: any) => c.company.smartDirectories.length === 1)).toBe(true);
    expect(twelve.statements).toBe(one.statements);
    expect(twelveUnder.statements).toBe(oneUnder.statements);
    // principal, directories, their companies, fields, consents, consentGiven, three for the consented contacts, addresses
    expect(one.statements).toBe(10);
    // principal, connections, companies, directories, companies of the directories, fields, three for the contacts, addresses
    expect(oneUnder.statements).toBe(10);
  });
});
