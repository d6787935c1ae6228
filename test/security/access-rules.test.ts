// The modules' access rules, called on a request's context over a real database: the company
// roles (company.access.ts), who sees an event and manages its notifications (event.access.ts),
// who reads a library and its entries (library.access.ts), the smart directory chain
// (directory.access.ts) and who may see a support group's QR code. Each rule lets its rightful
// callers through (with exactly what they may see) and refuses every other kind of caller with the
// specification's identifier and status. No app is started, so StrykerJS's access group can run
// this file for every mutant (docs/development.md, "Mutation testing").
import { isCompanyAdmin, requireCompanyAdmin, rolesOn } from '../../src/modules/company/company.access';
import { canSeeEvent, eventForNotifications, managesNotifications } from '../../src/modules/event/event.access';
import { canReadLibrary, readableEntry, readableLibrary } from '../../src/modules/library/library.access';
import { checkDirectoryContact, requireDirectoryContact, requireDirectoryMember } from '../../src/modules/directory/directory.access';
import { readableQrCode, readableQrCodes } from '../../src/modules/support-group/support-group.service';
import { ConsentDefinition, createSmartLibrary, SmartEntry, SmartLibrary, UserConsent, type CompanyRoleName, type User } from '../kit/src';
import { qrCode, refusal, useAccessKit } from '../kit/access';
import {
  connect,
  createCompany,
  createContact,
  createDirectory,
  createEvent,
  createLibrary,
  createTeam,
  createUser,
  grantCompanyRole,
  invite,
  suffix,
  tokenFor,
} from '../kit/factories';

const kit = useAccessKit();

/** A new user, and a request context of theirs (their service auth token sent). */
async function newCaller(): Promise<{ user: User; token: string }> {
  const user = await createUser(kit.db.orm);
  return { user, token: await tokenFor(kit.db.orm, user.uId) };
}
const as = (caller: { token: string }) => kit.context({ 'x-service-authtoken': caller.token });

/**
 * A new user for each name of `roles`, in its order (the order Object.values(users) gives them
 * back), holding the roles listed for them on those companies; their ids go into `users`.
 */
async function createUsersWithRoles<K extends string>(users: Record<K, number>, roles: Record<K, [number, CompanyRoleName][]>) {
  for (const name of Object.keys(roles) as K[]) {
    users[name] = (await createUser(kit.db.orm)).uId;
    for (const [companyId, role] of roles[name]) await grantCompanyRole(kit.db.orm, users[name], companyId, role);
  }
}

/** What `rule` answers for each of `users`, in their order, on one context. */
const eachOf = <T>(users: Record<string, number>, rule: (ctx: ReturnType<typeof kit.context>, uId: number) => Promise<T>) => {
  const ctx = kit.context();
  return Promise.all(Object.values(users).map((uId) => rule(ctx, uId)));
};

const NOT_ADMIN = { code: 'WSInsufficientPrivilegesException', status: 403, message: 'Only an admin of the company may do this.' };
const INVALID_AUTH = { code: 'WSInvalidAuthTokenException', status: 401, message: 'The auth token is missing or invalid.' };

describe('company roles (company.access.ts)', () => {
  let companyId: number;
  let elsewhereId: number;
  const users: Record<'admin' | 'sender' | 'both' | 'adminElsewhere' | 'nobody', number> = {} as any;
  beforeAll(async () => {
    companyId = (await createCompany(kit.db.orm)).companyId;
    elsewhereId = (await createCompany(kit.db.orm)).companyId;
    await createUsersWithRoles(users, {
      admin: [[companyId, 'ADMIN']],
      sender: [[companyId, 'PUSH_NOTIFICATION']],
      both: [
        [companyId, 'ADMIN'],
        [companyId, 'PUSH_NOTIFICATION'],
      ],
      adminElsewhere: [[elsewhereId, 'ADMIN']],
      nobody: [],
    });
  });

  it('when asked for the roles of users on a company, then each gets exactly the roles held there', async () => {
    const ctx = kit.context();
    const roles = await Promise.all(Object.values(users).map(async (uId) => (await rolesOn(ctx, uId, companyId)).sort()));
    expect(roles).toEqual([['ADMIN'], ['PUSH_NOTIFICATION'], ['ADMIN', 'PUSH_NOTIFICATION'], [], []]);
    expect(await rolesOn(ctx, users.adminElsewhere, elsewhereId)).toEqual(['ADMIN']);
  });

  it('when asked whether a user administers the company, then only its ADMINs do', async () => {
    expect(await eachOf(users, (ctx, uId) => isCompanyAdmin(ctx, uId, companyId))).toEqual([true, false, true, false, false]);
  });

  it("when an admin-only operation is asked, then its ADMINs pass and anyone else is refused, with the operation's own message if it gives one", async () => {
    const ctx = kit.context();
    await expect(requireCompanyAdmin(ctx, users.admin, companyId)).resolves.toBeUndefined();
    await expect(requireCompanyAdmin(ctx, users.both, companyId)).resolves.toBeUndefined();
    for (const uId of [users.sender, users.adminElsewhere, users.nobody])
      expect(await refusal(requireCompanyAdmin(ctx, uId, companyId))).toEqual(NOT_ADMIN);
    expect(await refusal(requireCompanyAdmin(ctx, users.sender, companyId, 'Only an admin may rename the company.'))).toEqual({
      ...NOT_ADMIN,
      message: 'Only an admin may rename the company.',
    });
  });
});

describe('events and their notifications (event.access.ts)', () => {
  let companyId: number;
  let event: { eId: number; eventUUID: string };
  let cancelled: { eId: number; eventUUID: string };
  const users: Record<'admin' | 'sender' | 'invitee' | 'adminElsewhere' | 'nobody', number> = {} as any;
  beforeAll(async () => {
    companyId = (await createCompany(kit.db.orm)).companyId;
    const elsewhere = (await createCompany(kit.db.orm)).companyId;
    await createUsersWithRoles(users, {
      admin: [[companyId, 'ADMIN']],
      sender: [[companyId, 'PUSH_NOTIFICATION']],
      invitee: [],
      adminElsewhere: [[elsewhere, 'ADMIN']],
      nobody: [],
    });
    event = await createEvent(kit.db.orm, companyId);
    cancelled = await createEvent(kit.db.orm, companyId, { status: 'C' });
    await invite(kit.db.orm, event.eId, users.invitee);
    await invite(kit.db.orm, cancelled.eId, users.invitee);
  });

  const NOT_FOUND = { code: 'WSEventNotFoundException', status: 404, message: 'The event was not found.' };

  it("when asked who manages a company's notifications, then its ADMINs and PUSH_NOTIFICATION senders do, no one else", async () => {
    expect(await eachOf(users, (ctx, uId) => managesNotifications(ctx, uId, companyId))).toEqual([true, true, false, false, false]);
  });

  it('when asked who sees an event, then its managers and its invitees do, no one else', async () => {
    const seeing = await eachOf(users, (ctx, uId) => canSeeEvent(ctx, uId, { cId: companyId, eId: event.eId }));
    expect(seeing).toEqual([true, true, true, false, false]);
  });

  it("when a manager reads an event's notifications, then the event is given, found by its uuid in any letter case", async () => {
    for (const uId of [users.admin, users.sender])
      for (const uuid of [event.eventUUID, event.eventUUID.toUpperCase()])
        expect(await eventForNotifications(kit.context(), uId, uuid)).toEqual({
          eId: event.eId,
          eventUUID: event.eventUUID,
          status: 'A',
          company: { companyId },
        });
  });

  it('when an invitee who manages nothing asks, then WSInsufficientPrivilegesException (403)', async () => {
    expect(await refusal(eventForNotifications(kit.context(), users.invitee, event.eventUUID))).toEqual({
      code: 'WSInsufficientPrivilegesException',
      status: 403,
      message: "The caller may not see or send this event's notifications.",
    });
  });

  it('when someone who may not see the event asks, or the event does not exist, then WSEventNotFoundException (404), as for an unknown one', async () => {
    for (const uId of [users.adminElsewhere, users.nobody])
      expect(await refusal(eventForNotifications(kit.context(), uId, event.eventUUID))).toEqual(NOT_FOUND);
    expect(await refusal(eventForNotifications(kit.context(), users.admin, '00000000-0000-4000-8000-000000000000'))).toEqual(NOT_FOUND);
  });

  it('when the event was cancelled, then those who see it get WSEventCancelledException (410); others still 404', async () => {
    for (const uId of [users.admin, users.sender, users.invitee])
      expect(await refusal(eventForNotifications(kit.context(), uId, cancelled.eventUUID))).toEqual({
        code: 'WSEventCancelledException',
        status: 410,
        message: 'The event was cancelled.',
      });
    expect(await refusal(eventForNotifications(kit.context(), users.nobody, cancelled.eventUUID))).toEqual(NOT_FOUND);
  });

  it('when the uuid is not a uuid, then WSInvalidParameterException (400) names eventUUID', async () => {
    expect(await refusal(eventForNotifications(kit.context(), users.admin, 'not-a-uuid'))).toEqual({
      code: 'WSInvalidParameterException',
      status: 400,
      message: 'eventUUID must be a UUID.',
      field: 'eventUUID',
    });
  });
});

describe('libraries and their entries (library.access.ts)', () => {
  type Who = 'publisher' | 'admin' | 'connected' | 'pending' | 'teamMember' | 'nobody';
  const callers = {} as Record<Who, { user: User; token: string }>;
  let companyLibrary: number;
  let teamLibrary: number;
  let companyEntry: number;
  let teamEntry: number;
  beforeAll(async () => {
    for (const who of ['publisher', 'admin', 'connected', 'pending', 'teamMember', 'nobody'] as Who[]) callers[who] = await newCaller();
    const companyId = (await createCompany(kit.db.orm)).companyId;
    const team = await createTeam(kit.db.orm, companyId, [callers.teamMember.user.uId]);
    await grantCompanyRole(kit.db.orm, callers.admin.user.uId, companyId, 'ADMIN');
    await connect(kit.db.orm, callers.connected.user.uId, companyId, 'accepted');
    await connect(kit.db.orm, callers.pending.user.uId, companyId, 'pending');
    companyLibrary = await createLibrary(kit.db.orm, { companyId, publishers: [callers.publisher.user.uId] });
    const em = kit.db.orm.em.fork();
    teamLibrary = (await createSmartLibrary(em, { companyId, teamId: team.teamId, smartLibName: `Team library ${suffix()}` })).smartLibId;
    const entry = (smartLibId: number) =>
      em.create(SmartEntry, {
        library: em.getReference(SmartLibrary, smartLibId),
        smartEntryType: 'URL',
        smartEntryName: `Entry ${suffix()}`,
        nameKey: `entry ${suffix()}`,
        smartEntryUrlLink: 'https://example.com/',
      } as SmartEntry);
    const [a, b] = [entry(companyLibrary), entry(teamLibrary)];
    await em.flush();
    [companyEntry, teamEntry] = [a.smartEntryId, b.smartEntryId];
  });

  /** Who of `callers` gets the answer (not null) from fn. */
  async function allowed(fn: (ctx: ReturnType<typeof as>) => Promise<unknown>): Promise<Who[]> {
    const who = Object.keys(callers) as Who[];
    const answers = await Promise.all(who.map((w) => fn(as(callers[w]))));
    return who.filter((_, i) => answers[i] !== null && answers[i] !== false);
  }

  it("when a library is the company's, then its publishers, the company's admins and its accepted connections read it", async () => {
    expect(await allowed((ctx) => readableLibrary(ctx, companyLibrary))).toEqual(['publisher', 'admin', 'connected']);
    expect(await readableLibrary(as(callers.connected), companyLibrary)).toMatchObject({ smartLibId: companyLibrary });
    expect(await allowed((ctx) => canReadLibrary(ctx, companyLibrary))).toEqual(['publisher', 'admin', 'connected']);
  });

  it("when a library is a team's, then the company's admins and the team's members read it, not the company's connections", async () => {
    expect(await allowed((ctx) => readableLibrary(ctx, teamLibrary))).toEqual(['admin', 'teamMember']);
    expect(await readableLibrary(as(callers.teamMember), teamLibrary)).toMatchObject({ smartLibId: teamLibrary });
    expect(await allowed((ctx) => canReadLibrary(ctx, teamLibrary))).toEqual(['admin', 'teamMember']);
  });

  it("when an entry is asked, then those who read its library get it, no one else; an unknown entry or library is no one's", async () => {
    expect(await allowed((ctx) => readableEntry(ctx, companyEntry))).toEqual(['publisher', 'admin', 'connected']);
    expect(await allowed((ctx) => readableEntry(ctx, teamEntry))).toEqual(['admin', 'teamMember']);
    expect(await readableEntry(as(callers.admin), teamEntry)).toMatchObject({ smartEntryId: teamEntry, library: teamLibrary });
    expect(await allowed((ctx) => readableEntry(ctx, 2_000_000_000))).toEqual([]);
    expect(await allowed((ctx) => readableLibrary(ctx, 2_000_000_000))).toEqual([]);
  });

  it('when a request asks about several libraries, then one statement answers them all', async () => {
    const ctx = as(callers.admin);
    await ctx.auth.requireUser();
    let answers: unknown[] = [];
    const count = await kit.countStatements(
      async () => (answers = await Promise.all([companyLibrary, teamLibrary, 2_000_000_000].map((id) => readableLibrary(ctx, id)))),
    );
    expect({ count, answers: answers.map((a: any) => a?.smartLibId ?? null) }).toEqual({
      count: 1,
      answers: [companyLibrary, teamLibrary, null],
    });
  });

  it('when the caller sends no valid auth token, then WSInvalidAuthTokenException (401)', async () => {
    expect(await refusal(readableLibrary(kit.context(), companyLibrary))).toEqual(INVALID_AUTH);
    expect(await refusal(canReadLibrary(kit.context({ 'x-service-authtoken': 'unknown' }), companyLibrary))).toEqual(INVALID_AUTH);
    expect(await refusal(readableEntry(kit.context(), companyEntry))).toEqual(INVALID_AUTH);
  });
});

describe('the smart directory chain (directory.access.ts)', () => {
  type Who = 'contact' | 'requiredOnly' | 'noContact' | 'noConsent' | 'declined' | 'outsider';
  const users = {} as Record<Who, number>;
  let companyId: number;
  let directory: string;
  let withoutAddresses: string;
  let inactive: string;
  let disabled: string;
  let disabledInactive: string;
  beforeAll(async () => {
    for (const who of ['contact', 'requiredOnly', 'noContact', 'noConsent', 'declined', 'outsider'] as Who[])
      users[who] = (await createUser(kit.db.orm)).uId;
    const members = [users.contact, users.requiredOnly, users.noContact, users.noConsent, users.declined];
    companyId = (await createCompany(kit.db.orm, { smartDirectoryEnabled: true })).companyId;
    // One consent required, one not.
    directory = (await createDirectory(kit.db.orm, { companyId, members, consents: [true, false] })).uuid;
    for (const who of ['contact', 'outsider'] as Who[]) await createContact(kit.db.orm, directory, users[who]);
    for (const who of ['requiredOnly', 'noConsent', 'declined'] as Who[])
      await createContact(kit.db.orm, directory, users[who], { consent: false });
    const em = kit.db.orm.em.fork();
    const [required] = await em.find(ConsentDefinition, { directory, consentRequired: true });
    em.create(UserConsent, { user: users.requiredOnly, consent: required, given: true } as any);
    em.create(UserConsent, { user: users.declined, consent: required, given: false } as any);
    await em.flush();

    withoutAddresses = (await createDirectory(kit.db.orm, { companyId, members: [users.contact], fieldIds: [3, 4], consents: [] })).uuid;
    inactive = (await createDirectory(kit.db.orm, { companyId, members: [users.contact], active: false })).uuid;
    disabled = (await createDirectory(kit.db.orm, { enabled: false, members: [users.contact] })).uuid;
    disabledInactive = (await createDirectory(kit.db.orm, { enabled: false, members: [users.contact], active: false })).uuid;
    for (const uuid of [withoutAddresses, inactive, disabled, disabledInactive]) await createContact(kit.db.orm, uuid, users.contact);
  });

  const em = () => kit.db.orm.em.fork();
  /** The ids a member's chain answers: their team membership's and their contact record's. */
  async function idsOf(uuid: string, userId: number): Promise<{ memberId: number; contactId: number | null }> {
    const [row] = await kit.db.orm.em
      .fork()
      .getConnection()
      .execute(
        `select m.id as member_id, (select r.contact_id from contact_record r where r.directory_uuid = d.directory_uuid and r.user_id = ?) as contact_id
           from smart_directory d join team_member m on m.team_id = d.team_id and m.user_id = ? where d.directory_uuid = ?`,
        [userId, userId, uuid],
      );
    return { memberId: row.member_id, contactId: row.contact_id };
  }

  it('when a member of its team asks, then the directory (with its company) and their contact record, if any, are given', async () => {
    for (const who of ['contact', 'noContact'] as Who[]) {
      const { directory: found, contactId } = await requireDirectoryMember(em(), users[who], directory);
      expect({ uuid: found.directoryUUID, companyId: found.company.companyId, companyName: found.company.companyName, contactId }).toEqual({
        uuid: directory,
        companyId,
        companyName: expect.stringMatching(/^Company /),
        contactId: (await idsOf(directory, users[who])).contactId,
      });
    }
    expect((await idsOf(directory, users.noContact)).contactId).toBeNull();
  });

  it('when the directory is unknown, of a company without the feature, inactive, or the caller not in its team, then each is refused in that order', async () => {
    const refusals = await Promise.all(
      [
        ['00000000-0000-4000-8000-000000000000', users.contact],
        [disabledInactive, users.outsider],
        [disabled, users.contact],
        [inactive, users.outsider],
        [inactive, users.contact],
        [directory, users.outsider],
      ].map(([uuid, uId]) => refusal(requireDirectoryMember(em(), uId as number, uuid as string))),
    );
    expect(refusals).toEqual([
      { code: 'WSSmartDirectoryNotFoundException', status: 404, message: 'No smart directory has this uuid.', field: 'directoryUUID' },
      { code: 'WSSmartDirectoryNotEnabledForCompanyException', status: 403, message: 'Smart directories are not enabled for the company.' },
      { code: 'WSSmartDirectoryNotEnabledForCompanyException', status: 403, message: 'Smart directories are not enabled for the company.' },
      { code: 'WSSmartDirectoryInactiveException', status: 403, message: 'The smart directory is inactive.' },
      { code: 'WSSmartDirectoryInactiveException', status: 403, message: 'The smart directory is inactive.' },
      { code: 'WSUserNotInSmartDirectoryException', status: 403, message: 'The user is not a member of the smart directory.' },
    ]);
  });

  it('when a member with a contact record who gave the required consents asks, then their membership and record are given', async () => {
    for (const who of ['contact', 'requiredOnly'] as Who[]) {
      const ids = await idsOf(directory, users[who]);
      expect(await checkDirectoryContact(em(), users[who], directory, { addresses: true })).toEqual(ids);
      const access = await requireDirectoryContact(em(), users[who], directory, { addresses: true });
      expect({
        uuid: access.directory.directoryUUID,
        companyName: access.directory.company.companyName,
        memberId: access.member.id,
        memberUser: access.member.user.uId,
        contactId: access.contact.contactId,
        contactUser: access.contact.user.uId,
      }).toEqual({
        uuid: directory,
        companyName: expect.stringMatching(/^Company /),
        memberId: ids.memberId,
        memberUser: users[who],
        contactId: ids.contactId,
        contactUser: users[who],
      });
    }
  });

  it('when the member has no contact record there, or has not given (or has declined) a required consent, then each is refused', async () => {
    const NOT_CONSENTED = {
      code: 'WSUserNotConsentedException',
      status: 403,
      message: 'The required consents of this directory have not been given.',
    };
    expect(await refusal(checkDirectoryContact(em(), users.noContact, directory, { addresses: false }))).toEqual({
      code: 'WSUserContactNotFoundException',
      status: 404,
      message: 'The user has no contact record in this directory.',
    });
    for (const who of ['noConsent', 'declined'] as Who[]) {
      expect(await refusal(checkDirectoryContact(em(), users[who], directory, { addresses: false }))).toEqual(NOT_CONSENTED);
      expect(await refusal(requireDirectoryContact(em(), users[who], directory, { addresses: false }))).toEqual(NOT_CONSENTED);
    }
    expect(await refusal(checkDirectoryContact(em(), users.outsider, directory, { addresses: false }))).toMatchObject({
      code: 'WSUserNotInSmartDirectoryException',
    });
  });

  it('when the directory shows no address field, then address operations are refused and the others let through', async () => {
    expect(await refusal(checkDirectoryContact(em(), users.contact, withoutAddresses, { addresses: true }))).toEqual({
      code: 'WSNoAddressFieldsInDirectoryException',
      status: 403,
      message: 'The smart directory shows no address fields.',
    });
    expect(await checkDirectoryContact(em(), users.contact, withoutAddresses, { addresses: false })).toEqual(
      await idsOf(withoutAddresses, users.contact),
    );
  });
});

describe("a support group's QR code (support-group.service.ts readableQrCodes)", () => {
  type Who = 'admin' | 'member' | 'otherMember' | 'adminElsewhere' | 'nobody';
  const callers = {} as Record<Who, { user: User; token: string }>;
  let codes: { mine: number; theirs: number; elsewhere: number };
  const UNKNOWN = 2_000_000_000;
  beforeAll(async () => {
    for (const who of ['admin', 'member', 'otherMember', 'adminElsewhere', 'nobody'] as Who[]) callers[who] = await newCaller();
    const companyId = (await createCompany(kit.db.orm)).companyId;
    const elsewhere = (await createCompany(kit.db.orm)).companyId;
    await grantCompanyRole(kit.db.orm, callers.admin.user.uId, companyId, 'ADMIN');
    await grantCompanyRole(kit.db.orm, callers.adminElsewhere.user.uId, elsewhere, 'ADMIN');
    codes = {
      mine: await qrCode(kit, companyId, [callers.member.user.uId]),
      theirs: await qrCode(kit, companyId, [callers.otherMember.user.uId]),
      elsewhere: await qrCode(kit, elsewhere, []),
    };
  });

  const ids = (qrs: ({ qrCodeId: number } | null)[]) => qrs.map((qr) => (qr === null ? null : qr.qrCodeId));

  it("when codes are asked, then the company's admins get all of its codes, a team's members their team's, others none; unknown ids are null, in key order", async () => {
    const asked = [codes.mine, codes.theirs, codes.elsewhere, UNKNOWN, codes.mine];
    const answers: Record<Who, (number | null)[]> = {} as any;
    for (const who of Object.keys(callers) as Who[]) answers[who] = ids(await readableQrCodes(as(callers[who]), asked));
    expect(answers).toEqual({
      admin: [codes.mine, codes.theirs, null, null, codes.mine],
      member: [codes.mine, null, null, null, codes.mine],
      otherMember: [null, codes.theirs, null, null, null],
      adminElsewhere: [null, null, codes.elsewhere, null, null],
      nobody: [null, null, null, null, null],
    });
  });

  it('when codes are asked, then three statements answer any number of them; none, or only unknown ones, cost less', async () => {
    const ctx = as(callers.member);
    await ctx.auth.requireUser();
    expect(await kit.countStatements(() => readableQrCodes(ctx, [codes.mine, codes.theirs, codes.elsewhere]))).toBe(3);
    expect(await kit.countStatements(async () => expect(await readableQrCodes(ctx, [])).toEqual([]))).toBe(0);
    expect(await kit.countStatements(async () => expect(await readableQrCodes(ctx, [UNKNOWN])).toEqual([null]))).toBe(1);
  });

  it('when one code is asked, then the one who may see it gets it; anyone else WSRecordNotFoundException (404), as for an unknown one', async () => {
    expect(await readableQrCode(as(callers.member), codes.mine)).toMatchObject({ qrCodeId: codes.mine });
    const NOT_FOUND = { code: 'WSRecordNotFoundException', status: 404, message: 'The QR code was not found.', field: 'qrCodeId' };
    expect(await refusal(readableQrCode(as(callers.otherMember), codes.mine))).toEqual(NOT_FOUND);
    expect(await refusal(readableQrCode(as(callers.admin), UNKNOWN))).toEqual(NOT_FOUND);
  });

  it('when the caller sends no valid auth token, then WSInvalidAuthTokenException (401)', async () => {
    expect(await refusal(readableQrCodes(kit.context(), [codes.mine]))).toEqual(INVALID_AUTH);
  });
});
