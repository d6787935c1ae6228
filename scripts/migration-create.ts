// Writes a migration for the difference between the entities and the schema the existing
// migrations build, then registers it in src/db/migrations/index.ts.
// Usage: npm run migration:create -- <name>
import 'reflect-metadata';
import fs from 'node:fs';
import path from 'node:path';
import { createOrm } from '../src/db/orm';
import { ENTITIES } from '../src/modules';

async function main() {
  const name = process.argv[2];
  if (!name || !/^[a-z][a-z0-9_]*$/.test(name)) {
    console.error('usage: npm run migration:create -- <snake_case_name>');
    process.exit(2);
  }
  const orm = await createOrm({ entities: ENTITIES, databaseUrl: null, embeddedDir: 'memory://' });
  try {
    await orm.migrator.up();
    const dir = path.resolve(__dirname, '../../src/db/migrations');
    const result = await orm.migrator.create(dir, false, false, name);
    if (!result.fileName) {
      console.log('No schema changes: nothing written.');
      return;
    }
    const file = path.join(dir, result.fileName);
    // Generated files are TypeScript; make the class name match the file for the explicit list.
    const className = path.basename(result.fileName, '.ts');
    let code = fs.readFileSync(file, 'utf8');
    code = code.replace(/export class \w+ extends Migration/, `export class ${className} extends Migration`);
    fs.writeFileSync(file, code);
    const indexPath = path.join(dir, 'index.ts');
    let index = fs.readFileSync(indexPath, 'utf8');
    index = index.replace(/(import type \{ Migration \}[^\n]*\n)/, `$1import { ${className} } from './${className}';\n`);
    index = index.replace(/\] = \[([^\]]*)\];/, (_m, list: string) => {
      const items = list
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
        .concat(className);
      return `] = [\n  ${items.join(',\n  ')},\n];`;
    });
    fs.writeFileSync(indexPath, index);
    console.log(`Wrote ${path.relative(process.cwd(), file)} and registered it.`);
  } finally {
    await orm.close(true);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
