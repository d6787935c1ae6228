// Writes schema/sql/<module>.sql, the SQL of each module's queries (src/modules/<m>/<m>.queries.ts),
// from the code (npm run sql; npm run schema too). test/foundation/sql-snapshots.test.ts fails when
// one is stale. No database is needed: the queries are compiled from the entities' metadata.
import fs from 'node:fs';
import path from 'node:path';
import { MikroORM } from '@mikro-orm/core';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { ReflectMetadataProvider } from '@mikro-orm/decorators/legacy';
import type { ModuleDefinition } from '../src/core/module';
import { MODULES } from '../src/modules';
import { queriesText } from '../src/db/sql-text';

/** Each module's committed SQL file (its name under schema/sql/) and its text, for the modules that have queries. */
export async function sqlSnapshots(): Promise<Map<string, string>> {
  const modules = MODULES as readonly ModuleDefinition[];
  const orm = await MikroORM.init({
    driver: PostgreSqlDriver,
    clientUrl: 'postgresql://nobody@127.0.0.1:1/none',
    metadataProvider: ReflectMetadataProvider,
    entities: modules.flatMap((m) => m.entities ?? []),
    allowGlobalContext: false,
  });
  const files = new Map<string, string>();
  try {
    const em = orm.em.fork();
    for (const { name } of modules) {
      const file = path.join(__dirname, '..', 'src', 'modules', name, `${name}.queries`);
      const ext = ['.ts', '.js'].find((e) => fs.existsSync(file + e));
      if (!ext) continue;
      const text = queriesText(em, name, (await import(file + ext)) as Record<string, unknown>);
      if (text) files.set(`${name}.sql`, text);
    }
  } finally {
    await orm.close();
  }
  return files;
}

/** schema/sql/, from the repository's root (this file runs from dist/scripts/ and, in tests, from scripts/). */
export const SQL_DIR = path.resolve(__dirname, __dirname.includes(`${path.sep}dist${path.sep}`) ? '../../schema/sql' : '../schema/sql');

if (require.main === module) {
  sqlSnapshots()
    .then((files) => {
      fs.mkdirSync(SQL_DIR, { recursive: true });
      for (const old of fs.readdirSync(SQL_DIR)) if (old.endsWith('.sql') && !files.has(old)) fs.rmSync(path.join(SQL_DIR, old));
      for (const [name, text] of files) fs.writeFileSync(path.join(SQL_DIR, name), text);
      console.log(`Wrote ${files.size} files in ${path.relative(process.cwd(), SQL_DIR)}`);
    })
    .catch((err) => {
      console.error(err);
      process.exit(1);
    });
}
