// Sync Up (DESIGN.md): updating a contact address copied from a profile address writes the
// same change to that profile address and to its copies in other Sync Up directories, in one
// transaction; without Sync Up only the contact address changes. Read back from the database.
import { startTestApp, type TestApp } from '../helpers/app';
import { createUser, tokenFor, userAuth } from '../factories';
import { addressRow, createUserAddress } from '../address/fixtures';
import { addressTables, createContact, createContactAddress, createDirectory } from './fixtures';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const put = (dir: string, uuid: string, body: unknown, headers: Record<string, string>) =>
  t.rest('PUT', `/rest/smartdirectory/${dir}/contactRecord/addresses/${uuid}`, { headers, body });

/**
 * One user with a work address A copied into three directories: D1 and D2 with Sync Up, D3
 * without. Each copy has its own phone, so a test can see that only changed fields travel.
 */
async function family() {
  const user = await createUser(t.db.orm);
  const headers = userAuth(await tokenFor(t.db.orm, user.uId));
  const source = await createUserAddress(t.db.orm, user.uId, { typeCode: 'W', city: 'Sydney', street: '1 Old Street', phone: 'A' });
  const dirs = await Promise.all([true, true, false].map((syncUp) => createDirectory(t.db.orm, { members: [user.uId], syncUp })));
  const copies = [];
  for (const [i, dir] of dirs.entries()) {
    const contact = await createContact(t.db.orm, dir.uuid, user.uId);
    copies.push(await createContactAddress(t.db.orm, contact.contactId, { typeCode: 'W', city: 'Sydney', street: '1 Old Street', phone: `C${i + 1}`, userAddressUuid: source.uuid }));
  }
  return { user, headers, source, dirs, copies };
}

describe('Sync Up', () => {
  it('when a linked address is updated in a Sync Up directory, then the profile address and the Sync Up copies change with it; the others do not', async () => {
    const f = await family();
    // The body carries the whole address as read, with two fields edited: only those two travel.
    const read = await t.rest('GET', `/rest/smartdirectory/${f.dirs[0].uuid}/contactRecord/addresses`, { headers: f.headers });
    const res = await put(f.dirs[0].uuid, f.copies[0].uuid, { ...read.body[0], city: 'Parramatta', street: '9 New Street' }, f.headers);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ uuid: f.copies[0].uuid, city: 'Parramatta', street: '9 New Street', phone: 'C1' });

    expect(await addressRow(t.db.orm, 'user_address', f.source.uuid)).toMatchObject({ city: 'Parramatta', street: '9 New Street', phone: 'A' });
    expect(await addressRow(t.db.orm, 'contact_address', f.copies[1].uuid)).toMatchObject({ city: 'Parramatta', street: '9 New Street', phone: 'C2' });
    expect(await addressRow(t.db.orm, 'contact_address', f.copies[2].uuid)).toMatchObject({ city: 'Sydney', street: '1 Old Street', phone: 'C3' });
  });

  it('when the directory has Sync Up off, then only the contact address changes', async () => {
    const f = await family();
    const before = await addressTables(t.db.orm);
    const res = await put(f.dirs[2].uuid, f.copies[2].uuid, { uuid: f.copies[2].uuid, city: 'Newcastle' }, f.headers);
    expect(res.body).toMatchObject({ city: 'Newcastle' });
    const after = await addressTables(t.db.orm);
    expect(after.user).toEqual(before.user);
    const changed = after.contact.filter((row, i) => JSON.stringify(row) !== JSON.stringify(before.contact[i]));
    expect(changed.map((r) => r.uuid)).toEqual([f.copies[2].uuid]);
  });

  it('when the contact address is not linked, then nothing else changes even with Sync Up on', async () => {
    const f = await family();
    const dir = (await createDirectory(t.db.orm, { members: [f.user.uId], syncUp: true })).uuid;
    const contact = await createContact(t.db.orm, dir, f.user.uId);
    const own = await createContactAddress(t.db.orm, contact.contactId, { typeCode: 'P' });
    const before = await addressTables(t.db.orm);
    await put(dir, own.uuid, { uuid: own.uuid, city: 'Hobart' }, f.headers);
    const after = await addressTables(t.db.orm);
    expect(after.user).toEqual(before.user);
    expect(after.contact.filter((r) => r.city === 'Hobart').map((r) => r.uuid)).toEqual([own.uuid]);
  });

  it('when the profile address was deleted, then its copies stay, unlinked, and update alone', async () => {
    const f = await family();
    const del = await t.rest('DELETE', `/rest/user/addresses/${f.source.uuid}`, { headers: f.headers });
    expect(del.status).toBe(204);
    expect(await addressRow(t.db.orm, 'contact_address', f.copies[0].uuid)).toMatchObject({ user_address_uuid: null, city: 'Sydney' });
    await put(f.dirs[0].uuid, f.copies[0].uuid, { uuid: f.copies[0].uuid, city: 'Wollongong' }, f.headers);
    expect(await addressRow(t.db.orm, 'contact_address', f.copies[1].uuid)).toMatchObject({ city: 'Sydney' });
  });

  it('when a synced change cannot be written to one copy (its record already holds the new type), then nothing is written anywhere', async () => {
    const f = await family();
    const recordOfCopy2 = (await t.db.orm.em.fork().getConnection().execute('select contact_id from contact_address where uuid = ?', [f.copies[1].uuid]))[0].contact_id;
    await createContactAddress(t.db.orm, recordOfCopy2, { typeCode: 'P' });
    const before = await addressTables(t.db.orm);
    const res = await put(f.dirs[0].uuid, f.copies[0].uuid, { uuid: f.copies[0].uuid, typeCode: 'P', city: 'Bondi' }, f.headers);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ errorCode: 'WSAddressAlreadyFullException', message: 'A linked contact record already holds an address of this type.', field: 'typeCode' });
    expect(await addressTables(t.db.orm)).toEqual(before);
  });

  it('when two Sync Up copies of one address are updated concurrently, then both finish and every linked address agrees', async () => {
    const f = await family();
    const [a, b] = await Promise.all([
      put(f.dirs[0].uuid, f.copies[0].uuid, { uuid: f.copies[0].uuid, city: 'Manly' }, f.headers),
      put(f.dirs[1].uuid, f.copies[1].uuid, { uuid: f.copies[1].uuid, suburb: 'North' }, f.headers),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    for (const row of [await addressRow(t.db.orm, 'user_address', f.source.uuid), await addressRow(t.db.orm, 'contact_address', f.copies[0].uuid), await addressRow(t.db.orm, 'contact_address', f.copies[1].uuid)]) {
      expect(row).toMatchObject({ city: 'Manly', suburb: 'North' });
    }
  });

  it("when Olivia updates her demo work copy, then her profile work address and her other directory's copy follow", async () => {
    const olivia = userAuth(await tokenFor(t.db.orm, 2001));
    const res = await put('d0000000-0000-4000-8000-000000001001', 'a0000000-0000-4000-8000-000000003001', { uuid: 'a0000000-0000-4000-8000-000000003001', phone: '+61 2 9000 9999' }, olivia);
    expect(res.status).toBe(200);
    expect(await addressRow(t.db.orm, 'user_address', 'a0000000-0000-4000-8000-000000002001')).toMatchObject({ phone: '+61 2 9000 9999' });
    expect(await addressRow(t.db.orm, 'contact_address', 'a0000000-0000-4000-8000-000000003002')).toMatchObject({ phone: '+61 2 9000 9999' });
  });
});
