// updateUserProfile in few statements (issue 18): the caller's user row, then one statement that
// locks the row, checks the references, compares and writes. The connection module's
// profileChanged handler adds its own statements when a field its matching reads changes
// (country, profession, specialty), so the counts here change other fields.
import { useTestApp, type Client } from '../kit';

const t = useTestApp();

const put = (who: Client, body: unknown) => who.rest('PUT', '/rest/user/profile', { body });

/** Statements and answer of one update, after one unmeasured update warmed the token cache. */
async function measured(who: Client, body: Record<string, unknown>): Promise<{ statements: number; res: any }> {
  let res: any;
  const statements = await t.countStatements(async () => (res = await put(who, body)));
  return { statements, res };
}

describe('updateUserProfile statements', () => {
  it('when one field changes, then the caller row and one statement', async () => {
    const u = await t.newUser();
    await put(u, { uId: u.uId, uInterests: 'Warm-up' });
    const { statements, res } = await measured(u, { uId: u.uId, uInterests: 'Chess' });
    expect(res.body).toEqual({ updatedFieldCount: 1 });
    expect(statements).toBe(2);
  });

  it('when reference ids and erased fields are given, then still two statements', async () => {
    const u = await t.newUser({ professionId: 102, interests: 'Old' });
    await put(u, { uId: u.uId, uFirstName: 'Warm-up' });
    const { statements, res } = await measured(u, {
      uId: u.uId,
      uTitleId: 6,
      uGenderCode: 'x',
      uConditionId: 301,
      uLastName: 'Lee',
      fieldsToNull: ['uInterests', 'uPhoto'],
    });
    // uPhoto was already null: not a change.
    expect(res.body).toEqual({ updatedFieldCount: 5 });
    expect(statements).toBe(2);
    expect(await t.row('app_user', { u_id: u.uId })).toMatchObject({
      title_id: 6,
      gender_code: 'X',
      condition_id: 301,
      last_name: 'Lee',
      interests: null,
      photo: null,
    });
  });

  it('when a reference is unknown, then two statements and nothing written', async () => {
    const u = await t.newUser({ firstName: 'Keep' });
    await put(u, { uId: u.uId, uInterests: 'Warm-up' });
    const before = await t.row('app_user', { u_id: u.uId });
    const { statements, res } = await measured(u, { uId: u.uId, uFirstName: 'Changed', uTitleId: 999 });
    expect(res).toMatchObject({ status: 400, body: { errorCode: 'WSInvalidParameterException', field: 'uTitleId' } });
    expect(statements).toBe(2);
    expect(await t.row('app_user', { u_id: u.uId })).toEqual(before);
  });

  it('when nothing is given, then only the caller row is read', async () => {
    const u = await t.newUser();
    await put(u, { uId: u.uId, uInterests: 'Warm-up' });
    const { statements, res } = await measured(u, { uId: u.uId });
    expect(res.body).toEqual({ updatedFieldCount: 0 });
    expect(statements).toBe(1);
  });
});

describe('updateUserProfile writes', () => {
  it('when a field changes, then updatedAt moves; when nothing changes, it stays', async () => {
    const u = await t.newUser();
    await t.sql(`update app_user set updated_at = now() - interval '1 day' where u_id = ?`, [u.uId]);
    const updatedAt = async () => new Date((await t.row('app_user', { u_id: u.uId })).updated_at).getTime();
    const dayOld = await updatedAt();
    await put(u, { uId: u.uId, uInterests: 'Chess' });
    const changed = await updatedAt();
    expect(changed).toBeGreaterThan(dayOld + 23 * 3600_000);
    await put(u, { uId: u.uId, uInterests: 'Chess' });
    expect(await updatedAt()).toBe(changed);
  });

  it('when a specialty is given and no profession is stored or given, then it is accepted', async () => {
    const u = await t.newUser({ professionId: null });
    const res = await put(u, { uId: u.uId, uSpecialtyId: 204 });
    expect(res.body).toEqual({ updatedFieldCount: 1 });
    expect((await t.row('app_user', { u_id: u.uId })).specialty_id).toBe(204);
  });

  it('when a specialty fits the profession given with it but not the stored one, then it is accepted', async () => {
    const u = await t.newUser({ professionId: 101, specialtyId: 201 });
    const res = await put(u, { uId: u.uId, uProfessionId: 102, uSpecialtyId: 204 });
    expect(res.body).toEqual({ updatedFieldCount: 2 });
    expect(await t.row('app_user', { u_id: u.uId })).toMatchObject({ profession_id: 102, specialty_id: 204 });
  });

  it('when a value holds a question mark or a quote, then it is stored as sent', async () => {
    const u = await t.newUser();
    const text = `Who? O'Brien's "notes" ?? \\? $1 -- done`;
    expect((await put(u, { uId: u.uId, uInterests: text })).body).toEqual({ updatedFieldCount: 1 });
    expect((await t.row('app_user', { u_id: u.uId })).interests).toBe(text);
    expect((await put(u, { uId: u.uId, uInterests: text })).body).toEqual({ updatedFieldCount: 0 });
  });
});
