// Each field said once (docs/development.md, "Adding a field"): for one field of each module, the
// source names it only where it is declared, its entity (column, GraphQL field, bound) and its input
// (and rule), besides the migrations; row types, select lists, REST bodies and writes derive from
// those. A module missing from the table has no such field yet (the comment above it says why).
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.join(__dirname, '../..');
const MIGRATIONS = 'src/db/migrations/';

/** Every .ts file under `dir` (src/ by default), relative to the repository, but the migrations (which name columns in snake_case). */
function sources(dir = path.join(ROOT, 'src')): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const file = path.join(dir, d.name);
    if (d.isDirectory()) return sources(file);
    const relative = path.relative(ROOT, file).split(path.sep).join('/');
    return d.name.endsWith('.ts') && !relative.startsWith(MIGRATIONS) ? [relative] : [];
  });
}

/** Whether `text` names `word` as a whole identifier (not inside a longer one: `fax` is not in `faxes` nor in `uFax`). */
const names = (text: string, word: string) => new RegExp(`(?<![A-Za-z0-9_$])${word}(?![A-Za-z0-9_$])`).test(text);

/** The files of `files` (path to text) that name `word`, sorted. */
const naming = (files: Record<string, string>, word: string) =>
  Object.keys(files)
    .filter((file) => names(files[file], word))
    .sort();

let SRC: Record<string, string>;
beforeAll(() => {
  SRC = Object.fromEntries(sources().map((file) => [file, fs.readFileSync(path.join(ROOT, file), 'utf8')]));
});

describe('the scan', () => {
  it('when a sample names a field as a word, then the scan finds that file, and only that one', () => {
    const sample = {
      'a.entity.ts': '@Property({ length: LIMITS.fax, nullable: true }) fax?: string | null;',
      'b.inputs.ts': "@Field(() => String) @Rule({ maxLength: LIMITS.fax }) fax?: string | null; // 'fax'",
      'c.routes.ts': "const SELECTION = 'uuid name faxes uFax fax_number faxNumber';",
    };
    expect(naming(sample, 'fax')).toEqual(['a.entity.ts', 'b.inputs.ts']);
  });

  it('when src/ is read, then it holds the modules and leaves the migrations out', () => {
    const files = Object.keys(SRC);
    expect(files).toContain('src/modules/address/address.entity.ts');
    expect(files.length).toBeGreaterThan(100);
    expect(files.filter((f) => f.startsWith(MIGRATIONS))).toEqual([]);
    // A name every entity file uses is found in each of them.
    const entities = files.filter((f) => f.startsWith('src/modules/') && f.endsWith('.entity.ts'));
    expect(naming(SRC, 'Entity')).toEqual(expect.arrayContaining(entities));
  });
});

const modules = (name: string) => `src/modules/${name}`;

// Modules with no such field: each field of theirs is behaviour, a rule that sets or tests it, not
// a copy that could be derived.
// consent, membership: no entity of their own (they read directory's consent entities and
//   discovery's identifiers; membership's field is discovery's below).
// directory: its columns are its rules (sync-up, type, order, auto-population) or written from
//   the support group's form (directory.service.ts); its name also orders the list.
// identity: its columns are protocol state (codes, hashes, grants), each set or read by the protocol.
// notification: each column is written by its own rule in the send pipeline (request, schedule,
//   dispatch, delivery) or is the inbox's read state and order.
// push: a subscription's columns are what the sender encrypts to and posts to; no view shows one.
// storage: the chunk store's columns are how it works (order, identity, digests, the purge).

/**
 * One field of each module: the files that may name it. Besides its entity and its input (with
 * its rule), the file declaring its GraphQL type where the entity carries none (user, connection,
 * support group, the event's views), and the module's demo seeder where the demo tenant gives it a
 * value (data, not a restatement of the field: adding a field needs no seed). Files are named
 * under src/modules/.
 */
const PINNED: { module: string; field: string; files: string[]; entity?: string }[] = [
  // The address's fax: the column, its bound and the Address type's field; the input and its rule.
  { module: 'address', field: 'fax', files: ['address/address.entity.ts', 'address/address.inputs.ts'] },
  // The user's entity keeps no GraphQL decorators (identity columns live on it): its GraphQL type is
  // profile.types.ts. The property (the column and the field that reads it) ...
  { module: 'user', field: 'socialNetworkAId', files: ['user/profile.types.ts', 'user/user.entity.ts'] },
  // ... and the specification's name (the bound, the field's name, the input and its rule).
  { module: 'user', field: 'uSocialNetworkAId', files: ['user/profile.inputs.ts', 'user/profile.types.ts', 'user/user.entity.ts'] },
  // A team's image key: a column only (a team has no input).
  { module: 'team', field: 'imageKey', files: ['team/team.entity.ts'] },
  // A smart entry's PDF download flag: the entity (column and field), the input and its rule.
  { module: 'library', field: 'smartEntryDownloadPdf', files: ['library/library.entity.ts', 'library/library.inputs.ts'] },
  // A company's web site: the column and the Company type's field; the recommended entity carries
  // the company's fields from that type (discovery.types.ts) and its read packs their columns.
  { module: 'company', field: 'companyWebsite', files: ['company/company.entity.ts', 'company/core.seeder.ts'] },
  // A connection's last change: the column, and the Connection type (connection.types.ts), whose
  // fields the reads and the mutations copy by name. Eight other entities have an updatedAt of their
  // own: the files scanned are those that name the connection's entity or sit in its folder.
  {
    module: 'connection',
    field: 'updatedAt',
    entity: 'CompanyConnection',
    files: ['connection/connection.entity.ts', 'connection/connection.types.ts'],
  },
  // A user identifier's first free field: the column; the membership input and type (which the
  // membership service writes and answers field by field from their metadata).
  { module: 'discovery', field: 'customField1', files: ['discovery/identifier.entity.ts', 'membership/membership.types.ts'] },
  // An event's image: the column, the event views' field that declares it reads it (ColumnOf,
  // event.types.ts, from which the reads select), and the demo events.
  { module: 'event', field: 'imageUrl', files: ['event/event.entity.ts', 'event/event.seeder.ts', 'event/event.types.ts'] },
  // A form field's type: the column and the AssessmentField type's field (`type`), which the read
  // selects from the type's metadata; the demo questions.
  {
    module: 'reference-data',
    field: 'fieldType',
    files: ['reference-data/reference-data.entity.ts', 'reference-data/reference-data.seeder.ts'],
  },
  // A support group asset's id: the column (ProductAsset keeps no GraphQL decorators) and the
  // SupportGroupAsset type, whose fields the answer copies from the asset by name.
  { module: 'support-group', field: 'assetId', files: ['support-group/support-group.entity.ts', 'support-group/support-group.types.ts'] },
];

describe('one field of each module is named only where it is declared', () => {
  it.each(PINNED)('when src/ is searched for $module $field, then only its declarations name it', ({ module, field, files, entity }) => {
    const scanned = entity
      ? Object.fromEntries(Object.entries(SRC).filter(([file, text]) => file.startsWith(`${modules(module)}/`) || names(text, entity)))
      : SRC;
    expect(naming(scanned, field)).toEqual(files.map((file) => `src/modules/${file}`).sort());
  });

  it('when the modules are listed, then each with an entity of its own has a pinned field or is said to have none', () => {
    const withEntities = [
      ...new Set(
        Object.keys(SRC)
          .filter((f) => f.startsWith('src/modules/') && f.endsWith('.entity.ts'))
          .map((f) => f.split('/')[2]),
      ),
    ];
    // idempotency: its table has no input type; its columns are written by its queries and answered by its protocol.
    const said = ['directory', 'identity', 'idempotency', 'notification', 'push', 'storage'];
    expect([...new Set([...PINNED.map((p) => p.module), ...said])].sort()).toEqual(expect.arrayContaining(withEntities.sort()));
  });
});
