// A library's entry count (smart_library.entry_count), which createSmartEntry reads under the
// library's row lock instead of counting the library's entries: kept by the triggers of
// smart_entry through creates, deletes, moves and cascades, and filled by its migration.
import type { AbstractSqlDriver } from '@mikro-orm/postgresql';
import { newPublisher, useTestApp, type Publisher } from '../kit';
import { Migration20261124160233_smart_library_entry_count as EntryCount } from '../../src/db/migrations/Migration20261124160233_smart_library_entry_count';

const t = useTestApp();

const create = (p: Publisher, name: string) =>
  p.rest('POST', '/rest/smartlib/smartentry', {
    body: { smartLibId: p.smartLibId, smartEntryType: 'URL', smartEntryName: name, smartEntryUrlLink: 'https://count.example' },
  });

/** Each library's stored count beside its entries counted. */
async function counts(...libraries: number[]): Promise<{ stored: number; counted: number }[]> {
  const out = [];
  for (const id of libraries) {
    const [row] = await t.sql(
      `select entry_count as stored, (select count(*)::int from smart_entry e where e.smart_lib_id = l.smart_lib_id) as counted
        from smart_library l where l.smart_lib_id = ?`,
      [id],
    );
    out.push({ stored: row.stored, counted: row.counted });
  }
  return out;
}

it('follows creates, deletes and moves between libraries', async () => {
  const a = await newPublisher(t);
  const b = await newPublisher(t);
  for (const name of ['One', 'Two', 'Three']) expect((await create(a, name)).status).toBe(200);
  expect((await create(b, 'Four')).status).toBe(200);
  expect(await counts(a.smartLibId, b.smartLibId)).toEqual([
    { stored: 3, counted: 3 },
    { stored: 1, counted: 1 },
  ]);
  await t.sql(`update smart_entry set smart_lib_id = ? where smart_lib_id = ? and smart_entry_name = 'Two'`, [b.smartLibId, a.smartLibId]);
  await t.sql(`update smart_entry set smart_entry_desc = 'unchanged library' where smart_lib_id = ?`, [a.smartLibId]);
  expect(await counts(a.smartLibId, b.smartLibId)).toEqual([
    { stored: 2, counted: 2 },
    { stored: 2, counted: 2 },
  ]);
  await t.sql(`delete from smart_entry where smart_lib_id in (?, ?)`, [a.smartLibId, b.smartLibId]);
  expect(await counts(a.smartLibId, b.smartLibId)).toEqual([
    { stored: 0, counted: 0 },
    { stored: 0, counted: 0 },
  ]);
});

it('a full library has room again once an entry is gone', async () => {
  const p = await newPublisher(t, { maxEntries: 1 });
  expect((await create(p, 'Only one')).status).toBe(200);
  const full = await create(p, 'One too many');
  expect({ status: full.status, body: full.body }).toEqual({
    status: 400,
    body: { errorCode: 'WSLimitExceededException', message: 'The library already holds its maximum of 1 entries.', field: 'smartLibId' },
  });
  await t.sql(`delete from smart_entry where smart_lib_id = ?`, [p.smartLibId]);
  expect((await create(p, 'One too many')).status).toBe(200);
  expect(await counts(p.smartLibId)).toEqual([{ stored: 1, counted: 1 }]);
});

it('the migration fills the count of the entries already stored', async () => {
  const p = await newPublisher(t);
  for (const name of ['One', 'Two']) expect((await create(p, name)).status).toBe(200);
  await t.sql(`update smart_library set entry_count = 0 where smart_lib_id = ?`, [p.smartLibId]);
  const migration = new EntryCount(t.orm.em.getDriver() as AbstractSqlDriver, t.orm.config);
  await migration.up();
  const fill = migration.getQueries().find((q): q is string => typeof q === 'string' && q.startsWith('update "smart_library"'));
  await t.sql(fill!);
  expect(await counts(p.smartLibId)).toEqual([{ stored: 2, counted: 2 }]);
});

it("an unfiltered page's totalCount is the kept count; a filtered one counts the matching entries", async () => {
  const p = await newPublisher(t);
  for (const name of ['One', 'Two', 'Three']) expect((await create(p, name)).status).toBe(200);
  const page = async (args: string) =>
    (await p.gql(`{ smartLibrary(smartLibId: ${p.smartLibId}) { entries(first: 1${args}) { totalCount } } }`)).body.data.smartLibrary
      .entries.totalCount;
  expect(await page('')).toBe(3);
  // The read takes the library's count as kept, not a count of its entries (a count set by hand shows).
  await t.sql('update smart_library set entry_count = 7 where smart_lib_id = ?', [p.smartLibId]);
  expect(await page('')).toBe(7);
  expect(await page(', tagName: "none"')).toBe(0);
});
