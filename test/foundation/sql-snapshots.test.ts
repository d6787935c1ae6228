// Every module's queries (src/modules/<m>/<m>.queries.ts) are committed as SQL (schema/sql/<m>.sql,
// `npm run sql`), as the schema is: a review reads the SQL a change makes. This fails when a file
// is stale, missing, or left over from a module that has no queries now.
import fs from 'node:fs';
import path from 'node:path';
import { SQL_DIR, sqlSnapshots } from '../../scripts/print-sql';
import { formatSql } from '../../src/db/sql-text';

it('schema/sql/ holds the SQL each module’s queries make now (npm run sql writes it)', async () => {
  const files = await sqlSnapshots();
  const committed = fs.readdirSync(SQL_DIR).filter((f) => f.endsWith('.sql'));
  expect(committed.sort()).toEqual([...files.keys()].sort());
  for (const [name, text] of files) expect(`${name}:\n${fs.readFileSync(path.join(SQL_DIR, name), 'utf8')}`).toBe(`${name}:\n${text}`);
  expect(files.get('user.sql')).toContain('from "title" as "t"');
});

it('writes each clause on a line of its own, nested ones indented, quoted text left whole', () => {
  expect(formatSql(`select "a" from "t" where exists (select 1 from "u" where "u"."x" = 'from where') order by "a"`)).toBe(
    [`select "a"`, `  from "t"`, `  where exists (select 1`, `    from "u"`, `    where "u"."x" = 'from where')`, `  order by "a"`].join(
      '\n',
    ),
  );
});
