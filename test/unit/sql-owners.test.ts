// SQL goes through its owner: a module's queries (src/modules/<m>/<m>.queries.ts) name only its
// own entities, and what they need of another module's tables is a fragment that module exports
// (a predicate, a join, a subquery over its own entities). Kysely names a table by its entity, and
// a query reaches an entity only by importing its class, so this looks at imports: it maps every
// entity class to the module whose definition lists it (the module list itself, no database), and
// fails where a file that writes SQL imports, as a value, an entity of another module. A file
// writes SQL when it builds queries (queriesOf, src/db/sql.ts). Query builders are for
// `<m>.queries.ts` files alone.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import type { ModuleDefinition } from '../../src/core/module';
import { MODULES } from '../../src/modules';

const SRC = path.join(__dirname, '..', '..', 'src');

/** An import of a file: the module it names, the values it imports (type-only ones left out), and its line. */
interface Import {
  from: string;
  names: string[];
  line: number;
}

function importsOf(fileName: string, text: string): Import[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  return source.statements.filter(ts.isImportDeclaration).flatMap((node): Import[] => {
    const clause = node.importClause;
    if (!clause || clause.isTypeOnly || !ts.isStringLiteral(node.moduleSpecifier)) return [];
    const bindings = clause.namedBindings;
    const names =
      bindings && ts.isNamedImports(bindings)
        ? bindings.elements.filter((e) => !e.isTypeOnly).map((e) => (e.propertyName ?? e.name).text)
        : [];
    return [{ from: node.moduleSpecifier.text, names, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1 }];
  });
}

/** Whether a file writes SQL: it builds queries (src/db/sql.ts queriesOf). */
const writesSql = (imports: Import[]) => imports.some((i) => /\/db\/sql$/.test(i.from) && i.names.includes('queriesOf'));

/** An entity of another module imported by a file that writes SQL: where, which, and whose. */
interface Foreign {
  file: string;
  line: number;
  entity: string;
  owner: string;
}

/**
 * Each entity of another module that `file` (its path under src/, `modules/<module>/...` belongs to
 * that module) imports as a value while writing SQL; `owners` maps an entity class name to its module.
 */
function foreignEntities(file: string, text: string, owners: ReadonlyMap<string, string>): Foreign[] {
  const own = /^modules\/([^/]+)\//.exec(file)?.[1] ?? null;
  const imports = importsOf(file, text);
  if (!writesSql(imports)) return [];
  return imports.flatMap((i) =>
    i.names.flatMap((entity) => {
      const owner = owners.get(entity);
      return owner !== undefined && owner !== own ? [{ file, line: i.line, entity, owner }] : [];
    }),
  );
}

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'migrations' || e.name === 'explorer' ? [] : sources(full);
    return e.name.endsWith('.ts') ? [full] : [];
  });
}

/** Entity class name -> owning module (its folder under src/modules/), from the module list. */
function entityOwners(): Map<string, string> {
  const owners = new Map<string, string>();
  for (const m of MODULES as readonly ModuleDefinition[]) {
    if (!fs.existsSync(path.join(SRC, 'modules', m.name, 'index.ts')))
      throw new Error(`No folder src/modules/${m.name} for module ${m.name}`);
    for (const entity of m.entities ?? []) owners.set((entity as { name: string }).name, m.name);
  }
  return owners;
}

describe('SQL names only its own module’s entities', () => {
  const owners = entityOwners();
  const files = sources(SRC).map((file) => ({
    file: path.relative(SRC, file).split(path.sep).join('/'),
    text: fs.readFileSync(file, 'utf8'),
  }));

  it('knows every module’s entities (from the module list)', () => {
    expect(owners.get('CompanyRole')).toBe('company');
    expect(owners.get('TeamMember')).toBe('team');
    expect(owners.get('CompanyConnection')).toBe('connection');
    expect(owners.size).toBeGreaterThan(40);
  });

  it('flags another module’s entity imported where SQL is written, not a type import, an own entity or a file that writes none', () => {
    const writer = [
      "import { queriesOf } from '../../db/sql';",
      "import { Company, companyUrl } from '../company';",
      "import type { TeamMember } from '../team';",
      "import { Event } from './event.entity';",
      "import { type CompanyRole, User } from '../user';",
    ].join('\n');
    expect(foreignEntities('modules/event/event.queries.ts', writer, owners).map((f) => `${f.line} ${f.entity} ${f.owner}`)).toEqual([
      '2 Company company',
      '5 User user',
    ]);
    // Outside src/modules/, every module's entity is another's.
    expect(foreignEntities('core/sample.ts', writer, owners).map((f) => f.entity)).toEqual(['Company', 'Event', 'User']);
    const reader = writer.replace("import { queriesOf } from '../../db/sql';", "import { send } from '../../db/sql';");
    expect(foreignEntities('modules/event/event.service.ts', reader, owners)).toEqual([]);
  });

  it('finds no file writing SQL over another module’s entity', () => {
    const found = files.flatMap(({ file, text }) => foreignEntities(file, text, owners));
    expect(found.map((f) => `${f.file}:${f.line}: ${f.entity} (${f.owner})`)).toEqual([]);
  });

  it('builds queries only in a module’s <m>.queries.ts', () => {
    const builders = files.filter(({ file, text }) =>
      importsOf(file, text).some((i) => /\/db\/sql$/.test(i.from) && i.names.includes('queriesOf')),
    );
    expect(builders.map((f) => f.file).filter((file) => !/^modules\/([^/]+)\/\1\.queries\.ts$/.test(file))).toEqual([]);
  });
});
