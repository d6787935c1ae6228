// Sync Up (docs/api/directory.md): updating a contact address copied from a profile address writes the
// same change to that profile address and to its copies in other Sync Up directories, in one
// transaction; without Sync Up only the contact address changes. Read back from the database.
import { createContact, createContactAddress, createDirectory, createUserAddress, DEMO, OLIVIA, useTestApp, type Client } from '../kit';

const t = useTestApp();

const put = (dir: string, uuid: string, body: unknown, who: Client) =>
  who.rest('PUT', `/rest/smartdirectory/${dir}/contactRecord/addresses/${uuid}`, { body });
const addressTables = () => t.tableRows(['user_address', 'contact_address']);

/**
 * One user with a work address A copied into three directories: D1 and D2 with Sync Up, D3
 * without. Each copy has its own phone, so a test can see that only changed fields travel.
 */
async function family() {
  const user = await t.newUser();
  const source = await createUserAddress(t.orm, user.uId, { typeCode: 'W', city: 'Sydney', street: '1 Old Street', phone: 'A' });
  const dirs = await Promise.all([true, true, false].map((syncUp) => createDirectory(t.orm, { members: [user.uId], syncUp })));
  const copies = [];
  for (const [i, dir] of dirs.entries()) {
    const contact = await createContact(t.orm, dir.uuid, user.uId);
    copies.push(
      await createContactAddress(t.orm, contact.contactId, {
        typeCode: 'W',
        city: 'Sydney',
        street: '1 Old Street',
        phone: `C${i + 1}`,
        userAddressUuid: source.uuid,
      }),
    );
  }
  return { user, source, dirs, copies };
}

describe('Sync Up', () => {
  it('when a linked address is updated in a Sync Up directory, then the profile address and the Sync Up copies change with it; the others do not', async () => {
    const f = await family();
    // The body carries the whole address as read, with two fields edited: only those two travel.
    const read = await f.user.rest('GET', `/rest/smartdirectory/${f.dirs[0].uuid}/contactRecord/addresses`);
    const res = await put(f.dirs[0].uuid, f.copies[0].uuid, { ...read.body[0], city: 'Parramatta', street: '9 New Street' }, f.user);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ uuid: f.copies[0].uuid, city: 'Parramatta', street: '9 New Street', phone: 'C1' });

    expect(await t.row('user_address', { uuid: f.source.uuid })).toMatchObject({ city: 'Parramatta', street: '9 New Street', phone: 'A' });
    expect(await t.row('contact_address', { uuid: f.copies[1].uuid })).toMatchObject({
      city: 'Parramatta',
      street: '9 New Street',
      phone: 'C2',
    });
    expect(await t.row('contact_address', { uuid: f.copies[2].uuid })).toMatchObject({
      city: 'Sydney',
      street: '1 Old Street',
      phone: 'C3',
    });
  });

  it('when the directory has Sync Up off, then only the contact address changes', async () => {
    const f = await family();
    const before = await addressTables();
    const res = await put(f.dirs[2].uuid, f.copies[2].uuid, { uuid: f.copies[2].uuid, city: 'Newcastle' }, f.user);
    expect(res.body).toMatchObject({ city: 'Newcastle' });
    const after = await addressTables();
    expect(after.user_address).toEqual(before.user_address);
    const changed = after.contact_address.filter((row, i) => JSON.stringify(row) !== JSON.stringify(before.contact_address[i]));
    expect(changed.map((r) => r.uuid)).toEqual([f.copies[2].uuid]);
  });

  it('when the contact address is not linked, then nothing else changes even with Sync Up on', async () => {
    const f = await family();
    const dir = (await createDirectory(t.orm, { members: [f.user.uId], syncUp: true })).uuid;
    const contact = await createContact(t.orm, dir, f.user.uId);
    const own = await createContactAddress(t.orm, contact.contactId, { typeCode: 'P' });
    const before = await addressTables();
    await put(dir, own.uuid, { uuid: own.uuid, city: 'Hobart' }, f.user);
    const after = await addressTables();
    expect(after.user_address).toEqual(before.user_address);
    expect(after.contact_address.filter((r) => r.city === 'Hobart').map((r) => r.uuid)).toEqual([own.uuid]);
  });

  it('when the profile address was deleted, then its copies stay, unlinked, and update alone', async () => {
    const f = await family();
    const del = await f.user.rest('DELETE', `/rest/user/addresses/${f.source.uuid}`);
    expect(del.status).toBe(204);
    expect(await t.row('contact_address', { uuid: f.copies[0].uuid })).toMatchObject({ user_address_uuid: null, city: 'Sydney' });
    await put(f.dirs[0].uuid, f.copies[0].uuid, { uuid: f.copies[0].uuid, city: 'Wollongong' }, f.user);
    expect(await t.row('contact_address', { uuid: f.copies[1].uuid })).toMatchObject({ city: 'Sydney' });
  });

  it('when a synced change cannot be written to one copy (its record already holds the new type), then nothing is written anywhere', async () => {
    const f = await family();
    const recordOfCopy2 = (await t.sql('select contact_id from contact_address where uuid = ?', [f.copies[1].uuid]))[0].contact_id;
    await createContactAddress(t.orm, recordOfCopy2, { typeCode: 'P' });
    const before = await addressTables();
    const res = await put(f.dirs[0].uuid, f.copies[0].uuid, { uuid: f.copies[0].uuid, typeCode: 'P', city: 'Bondi' }, f.user);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      errorCode: 'WSAddressAlreadyFullException',
      message: 'A linked contact record already holds an address of this type.',
      field: 'typeCode',
    });
    expect(await addressTables()).toEqual(before);
  });

  it('when two Sync Up copies of one address are updated concurrently, then both finish and every linked address agrees', async () => {
    const f = await family();
    const [a, b] = await Promise.all([
      put(f.dirs[0].uuid, f.copies[0].uuid, { uuid: f.copies[0].uuid, city: 'Manly' }, f.user),
      put(f.dirs[1].uuid, f.copies[1].uuid, { uuid: f.copies[1].uuid, suburb: 'North' }, f.user),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    for (const row of [
      await t.row('user_address', { uuid: f.source.uuid }),
      await t.row('contact_address', { uuid: f.copies[0].uuid }),
      await t.row('contact_address', { uuid: f.copies[1].uuid }),
    ]) {
      expect(row).toMatchObject({ city: 'Manly', suburb: 'North' });
    }
  });

  it("when Olivia updates her demo work copy, then her profile work address and her other directory's copy follow", async () => {
    const res = await put(
      DEMO.directories.staff,
      DEMO.contactAddresses.staff,
      { uuid: DEMO.contactAddresses.staff, phone: '+61 2 9000 9999' },
      t.as(OLIVIA),
    );
    expect(res.status).toBe(200);
    expect(await t.row('user_address', { uuid: DEMO.addresses.oliviaWork })).toMatchObject({ phone: '+61 2 9000 9999' });
    expect(await t.row('contact_address', { uuid: DEMO.contactAddresses.cardiology })).toMatchObject({ phone: '+61 2 9000 9999' });
  });
});
