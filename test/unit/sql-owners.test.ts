// SQL goes through its owner: a module that needs another module's table asks that module's door
// for a predicate or a read, built from the entities' metadata; it never writes the table's name
// in its own SQL text. dependency-cruiser holds imports to the doors, and this holds the strings:
// it maps every table to the module whose entities map it (MikroORM's own metadata, discovered
// without a database), then scans the string and template literals of every file under src/
// (comments are not literals; migrations are the schema's history, not a module's SQL) and fails
// on a literal where a file names, in SQL position (after from, join, into, update, table, or
// references), a table of a module that is not the file's own. A file outside src/modules/ belongs
// to no module. A module that may not import the owner (the owner imports it) asks through the
// doors the owner declares (src/core/sql-doors.ts).
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { MikroORM } from '@mikro-orm/core';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { ReflectMetadataProvider } from '@mikro-orm/decorators/legacy';
import type { ModuleDefinition } from '../../src/core/module';
import { MODULES } from '../../src/modules';

const SRC = path.join(__dirname, '..', '..', 'src');

/** The texts of a file's string and template literals (a template's substitutions as `${}`), with their lines. */
function literalsOf(fileName: string, text: string): { line: number; text: string }[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: { line: number; text: string }[] = [];
  const at = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) found.push({ line: at(node), text: node.text });
    else if (ts.isTemplateExpression(node))
      found.push({ line: at(node), text: [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join('${}') });
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The keywords after which a name is a table's (`from x`, `join x`, `insert into x`, `update x`, ...). */
const TABLE_POSITION = /\b(?:from|join|into|update|table|references)\s+(?:only\s+)?(?:public\.)?"?([a-z_][a-z0-9_]*)"?/gi;

/** A table of another module named in SQL text: where, which, and whose. */
interface Foreign {
  file: string;
  line: number;
  table: string;
  owner: string;
}

/**
 * Each table of another module that a literal of `file` names in SQL position: `file` is the path
 * under src/ (`modules/<module>/...` belongs to that module), `owners` maps a table to its module.
 */
function foreignTables(file: string, text: string, owners: ReadonlyMap<string, string>): Foreign[] {
  const own = /^modules\/([^/]+)\//.exec(file)?.[1] ?? null;
  const found: Foreign[] = [];
  for (const literal of literalsOf(file, text))
    for (const m of literal.text.matchAll(TABLE_POSITION)) {
      const table = m[1].toLowerCase();
      const owner = owners.get(table);
      if (owner !== undefined && owner !== own) found.push({ file, line: literal.line, table, owner });
    }
  return found;
}

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'migrations' || e.name === 'explorer' ? [] : sources(full);
    return e.name.endsWith('.ts') ? [full] : [];
  });
}

/** Table name -> owning module (its folder under src/modules/), from MikroORM's metadata: discovered, never connected. */
async function tableOwners(): Promise<Map<string, string>> {
  const orm = await MikroORM.init({
    driver: PostgreSqlDriver,
    clientUrl: 'postgresql://nobody@127.0.0.1:1/none',
    metadataProvider: ReflectMetadataProvider,
    entities: MODULES.flatMap((m: ModuleDefinition) => m.entities ?? []),
    allowGlobalContext: false,
  });
  const owners = new Map<string, string>();
  try {
    for (const m of MODULES as readonly ModuleDefinition[]) {
      if (!fs.existsSync(path.join(SRC, 'modules', m.name, 'index.ts')))
        throw new Error(`No folder src/modules/${m.name} for module ${m.name}`);
      for (const entity of m.entities ?? []) owners.set(orm.getMetadata().get(entity).tableName, m.name);
    }
  } finally {
    await orm.close();
  }
  return owners;
}

describe('SQL names only its own module’s tables', () => {
  let owners: Map<string, string>;
  let found: Foreign[];
  beforeAll(async () => {
    owners = await tableOwners();
    found = sources(SRC).flatMap((file) =>
      foreignTables(path.relative(SRC, file).split(path.sep).join('/'), fs.readFileSync(file, 'utf8'), owners),
    );
  });

  it('knows every module’s tables (from the metadata)', () => {
    expect(owners.get('company_role')).toBe('company');
    expect(owners.get('team_member')).toBe('team');
    expect(owners.get('company_connection')).toBe('connection');
    expect(owners.size).toBeGreaterThan(40);
  });

  it('flags a foreign table in SQL text, not one in a comment, a plain word or a table of the file’s own module', () => {
    const offending = [
      '// select 1 from company_role r (a comment)',
      'const a = `select 1 from smart_directory d left join team_member m on m.team_id = d.team_id and ${more}`;',
      'const b = \'insert into "company_connection" (user_id) values (?)\';',
    ].join('\n');
    expect(foreignTables('modules/directory/sample.ts', offending, owners).map((f) => `${f.line} ${f.table} ${f.owner}`)).toEqual([
      '2 team_member team',
      '3 company_connection connection',
    ]);
    // Outside src/modules/, every module's table is another's.
    expect(foreignTables('core/sample.ts', offending, owners).map((f) => f.table)).toEqual([
      'smart_directory',
      'team_member',
      'company_connection',
    ]);
    const clean = [
      '/* select 1 from team_member */',
      'const a = `select 1 from ${m.table} m where m.${m.column("team")} = ? and ${isTeamMemberSql(n, "d.team_id", "?")}`;',
      "const b = 'the team_member of a team, from the company'; // words, not tables",
      'const c = `select 1 from smart_directory d join contact_record r on r.directory_uuid = d.directory_uuid`;',
    ].join('\n');
    expect(foreignTables('modules/directory/sample.ts', clean, owners)).toEqual([]);
  });

  it('finds no module naming another module’s table in its SQL', () => {
    expect(found.map((f) => `${f.file}:${f.line}: ${f.table} (${f.owner})`)).toEqual([]);
  });
});
