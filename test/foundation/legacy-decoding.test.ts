// REST decodes request bodies and query values as the legacy Java service did (docs/api/README.md,
// "Legacy compatibility"): unknown properties ignored, a number taken as its text for a text
// field, integer text as the integer, "true"/"false" in any case as the boolean; anything else
// of the wrong type is WSInvalidParameterException naming the field, and length and code rules
// apply after decoding. /graphql keeps strict GraphQL typing.
import { CARA, DEMO, fingerprint, newPublisher, NORTHWIND, OLIVIA, useTestApp, type Publisher } from '../kit';
import { UserAddress } from '../../src/modules/address/address.entity';
import { User } from '../../src/modules/user/user.entity';

const t = useTestApp();
const olivia = t.as(OLIVIA);
const cara = t.as(CARA);
let p: Publisher;
beforeAll(async () => {
  p = await newPublisher(t);
});

const WORK = DEMO.addresses.oliviaWork;
const invalid = (field: string) => ({ errorCode: 'WSInvalidParameterException', message: `Invalid value for ${field}.`, field });
/** A refusal's status, identifier and field (its message aside). */
const refusal = (res: { status: number; body: any }) => ({ status: res.status, errorCode: res.body.errorCode, field: res.body.field });
/** Sends a request and expects WSInvalidParameterException naming `field`, every table as it was. */
async function refusedUnchanged(send: () => Promise<{ status: number; body: any }>, field: string) {
  const before = await fingerprint(t.orm);
  const res = await send();
  expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: invalid(field) });
  expect(await fingerprint(t.orm)).toEqual(before);
}
const ignoredCount = async (operation: string) => {
  const text = await (await fetch(`${t.baseUrl}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`rest_ignored_properties_total{operation="${operation}"}`));
  return line ? Number(line.split(' ').pop()) : 0;
};

describe('address bodies (updateUserAddressByAddressUUID)', () => {
  const put = (body: unknown) => olivia.rest('PUT', `/rest/user/addresses/${WORK}`, { body });

  it('when the body carries a property the operation does not know, then it is ignored and counted', async () => {
    const before = await ignoredCount('updateUserAddressByAddressUUID');
    const res = await put({ uuid: WORK, city: 'Parramatta', isPrimary: true });
    expect(res.status).toBe(200);
    expect(res.body.city).toBe('Parramatta');
    expect(await ignoredCount('updateUserAddressByAddressUUID')).toBe(before + 1);
  });

  it('when postcode is a number, then its decimal text is stored', async () => {
    const res = await put({ uuid: WORK, postcode: 2037 });
    expect({ status: res.status, postcode: res.body.postcode }).toEqual({ status: 200, postcode: '2037' });
    expect((await t.orm.em.fork().findOneOrFail(UserAddress, WORK)).postcode).toBe('2037');
  });

  it('when a number is longer than the field once written as text, then WSFieldLengthException (lengths apply after decoding)', async () => {
    const before = await fingerprint(t.orm);
    const res = await put({ uuid: WORK, postcode: 1.2345678901234568e20 });
    expect(refusal(res)).toEqual({ status: 400, errorCode: 'WSFieldLengthException', field: 'postcode' });
    expect(await fingerprint(t.orm)).toEqual(before);
  });

  it.each([
    ['an object for text', { uuid: WORK, city: { name: 'Sydney' } }, 'city'],
    ['a boolean for text', { uuid: WORK, street: true }, 'street'],
    ['a list for text', { uuid: WORK, suburb: ['Glebe'] }, 'suburb'],
  ])('when the body holds %s, then WSInvalidParameterException names the field and nothing changes', (_what, body, field) =>
    refusedUnchanged(() => put(body), field),
  );

  it('when a code is given after decoding, then the code rule still applies (typeCode 7 is not W, P or O)', async () => {
    const res = await put({ uuid: WORK, typeCode: 7 });
    expect(refusal(res)).toEqual({ status: 400, errorCode: 'WSInvalidParameterException', field: 'typeCode' });
  });
});

describe('profile bodies (updateUserProfile)', () => {
  const put = (body: unknown) => olivia.rest('PUT', '/rest/user/profile', { body });

  it('when uId is integer text and a boolean is "true"/"FALSE" text, then they are taken as the integer and the booleans', async () => {
    const res = await put({ uId: String(OLIVIA), uEnableLocation: 'true', uAllowNewsletterEmail: 'FALSE' });
    expect(res.status).toBe(200);
    const user = await t.orm.em.fork().findOneOrFail(User, OLIVIA);
    expect({ enableLocation: user.enableLocation, allowNewsletterEmail: user.allowNewsletterEmail }).toEqual({
      enableLocation: true,
      allowNewsletterEmail: false,
    });
  });

  it('when the profile read with GET is edited and sent back whole, then only the edited field changes', async () => {
    const read = await olivia.rest('GET', '/rest/user/profile');
    expect(read.status).toBe(200);
    const res = await put({ ...read.body, uInterests: 'Rural health' });
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { updatedFieldCount: 1 } });
    const again = await olivia.rest('GET', '/rest/user/profile');
    expect(again.body).toEqual({ ...read.body, uInterests: 'Rural health' });
  });

  it.each([
    ['"abc" for an integer', { uId: 'abc' }, 'uId'],
    ['1.5 for an integer', { uId: OLIVIA, uTitleId: 1.5 }, 'uTitleId'],
    ['"yes" for a boolean', { uId: OLIVIA, uEnableNotifications: 'yes' }, 'uEnableNotifications'],
    ['a number for a boolean', { uId: OLIVIA, uAllowAllEmails: 1 }, 'uAllowAllEmails'],
    ['an object for a list', { uId: OLIVIA, fieldsToNull: { uInterests: true } }, 'fieldsToNull'],
  ])('when the body holds %s, then WSInvalidParameterException names the field and nothing changes', (_what, body, field) =>
    refusedUnchanged(() => put(body), field),
  );

  it('when the same value comes through /graphql with the wrong type, then GraphQL typing refuses it (strict)', async () => {
    const res = await olivia.gql('mutation($i: UpdateUserProfileInput!) { updateUserProfile(input: $i) { updatedFieldCount } }', {
      i: { uId: String(OLIVIA) },
    });
    expect(res.body.errors?.[0].extensions.errorCode).toBe('WSInvalidParameterException');
  });
});

describe('notification bodies (sendNotification)', () => {
  it('when companyId is text, the message a number, team ids numbers and an unknown property is present, then the notification is sent', async () => {
    const res = await cara.rest('POST', '/rest/notification/send', {
      body: { broadcastType: 'GT', companyId: String(NORTHWIND), valueIds: [DEMO.teamId], message: 20261124, priority: 'high' },
    });
    expect(res.status).toBe(200);
    expect(res.body.sentNotification).toMatchObject({ type: 'GT', companyId: NORTHWIND, message: '20261124', successful: true });
  });

  it.each([
    ['an object for companyId', { broadcastType: 'GT', companyId: { id: NORTHWIND }, valueIds: ['1'], message: 'x' }, 'companyId'],
    ['a list of objects for valueIds', { broadcastType: 'GT', companyId: NORTHWIND, valueIds: [{ id: 1 }], message: 'x' }, 'valueIds'],
    [
      'a text for a list of e-mail parameters',
      { broadcastType: 'GT', companyId: NORTHWIND, valueIds: ['1'], message: 'x', emailParams: 'a=b' },
      'emailParams',
    ],
  ])('when the body holds %s, then WSInvalidParameterException names it and nothing is stored', async (_what, body, field) => {
    const before = await fingerprint(t.orm);
    const res = await cara.rest('POST', '/rest/notification/send', { body });
    expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: invalid(field) });
    expect(await fingerprint(t.orm)).toEqual(before);
  });

  it('when the message is longer than 1000 characters, then WSFieldLengthException (after decoding, as for any text)', async () => {
    const res = await cara.rest('POST', '/rest/notification/send', {
      body: { broadcastType: 'GT', companyId: NORTHWIND, valueIds: [DEMO.teamId], message: 'x'.repeat(1001) },
    });
    expect(refusal(res)).toEqual({ status: 400, errorCode: 'WSFieldLengthException', field: 'message' });
  });

  it('when a list query value is text of an integer, then it is the integer (version=1, companyId)', async () => {
    const res = await cara.rest('GET', `/rest/notification/sent?version=1&broadcastType=GT&companyId=${NORTHWIND}&pageNum=1`);
    expect(res.status).toBe(200);
    const bad = await cara.rest('GET', `/rest/notification/sent?version=one&broadcastType=GT&companyId=${NORTHWIND}`);
    expect({ status: bad.status, body: bad.body }).toEqual({ status: 400, body: invalid('version') });
  });
});

describe('smart entry bodies (createSmartEntry)', () => {
  const create = (body: Record<string, unknown>) => p.rest('POST', '/rest/smartlib/smartentry', { body });

  it('when ids are text, the name a number, a boolean "TRUE" text and items carry response-only properties, then the entry is created', async () => {
    const res = await create({
      smartLibId: String(p.smartLibId),
      smartEntryType: 'URL',
      smartEntryName: 20261124,
      smartEntryUrlLink: 'https://example.org/guide',
      sendNotification: 'FALSE',
      smartEntryTags: [{ smartTagName: 'Legacy', smartTagId: 99 }],
      smartEntryId: 5,
      smartEntryCreated: 1700000000000,
    });
    expect(res.status).toBe(200);
    expect({
      smartLibId: res.body.smartLibId,
      name: res.body.smartEntryName,
      tags: res.body.smartEntryTags.map((x: any) => x.smartTagName),
    }).toEqual({
      smartLibId: p.smartLibId,
      name: '20261124',
      tags: ['Legacy'],
    });
  });

  it.each([
    [
      '"abc" for smartLibId',
      { smartLibId: 'abc', smartEntryType: 'URL', smartEntryName: 'A', smartEntryUrlLink: 'https://example.org' },
      'smartLibId',
    ],
    [
      '"maybe" for sendNotification',
      { smartLibId: 0, smartEntryType: 'URL', smartEntryName: 'A', smartEntryUrlLink: 'https://example.org', sendNotification: 'maybe' },
      'sendNotification',
    ],
    [
      'an object for a tag list',
      {
        smartLibId: 0,
        smartEntryType: 'URL',
        smartEntryName: 'A',
        smartEntryUrlLink: 'https://example.org',
        smartEntryTags: { smartTagName: 'x' },
      },
      'smartEntryTags',
    ],
    [
      'an object for a tag name',
      {
        smartLibId: 0,
        smartEntryType: 'URL',
        smartEntryName: 'A',
        smartEntryUrlLink: 'https://example.org',
        smartEntryTags: [{ smartTagName: { x: 1 } }],
      },
      'smartTagName',
    ],
  ])('when the body holds %s, then WSInvalidParameterException names the field and nothing is stored', async (_what, body, field) => {
    const before = await fingerprint(t.orm);
    const res = await create(body.smartLibId === 0 ? { ...body, smartLibId: p.smartLibId } : body);
    expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: invalid(field) });
    expect(await fingerprint(t.orm)).toEqual(before);
  });
});
