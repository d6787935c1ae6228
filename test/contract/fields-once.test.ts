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
    const entities = files.filter((f) => f.endsWith('.entity.ts'));
    expect(naming(SRC, 'Entity')).toEqual(expect.arrayContaining(entities));
  });
});

const modules = (name: string) => `src/modules/${name}`;

// Modules with no such field yet: each field is also named where deriving it would be a rewrite.
// company: its discovery fields are copied by the recommended entity (discovery.types.ts) and its
//   packed read (discovery.service.ts), and given demo values (core.seeder.ts); the rest are rules.
// connection: every column is a state of the transition rules (connection.service.ts).
// consent, directory: the directory's columns are its rules; a consent's texts are seeded and
//   written from the support group's form (directory.service.ts).
// discovery: an identifier's fields drive the format check and its messages, and are seeded.
// event: every column is seeded; the UserEvent view names each field in the specification's
//   words, mapped column by column (event.reads.ts).
// identity: its columns are protocol state (codes, hashes, grants), each read by the protocol.
// notification: each field is carried through the send pipeline (request, schedule, dispatch,
//   delivery) and the views (notification.types.ts, notification.lists.ts).
// push: a subscription's columns are what the sender encrypts to and posts to.
// reference-data: the lists are seeded, their names read by the profile and directories, and the
//   time zones computed (iso.ts).
// support-group: each field is mapped from the form (support-group.form.ts) and provisioned by the service.

describe('one field of each module is named only by its entity and its input', () => {
  it.each([
    // The address's fax: the column, its bound and the Address type's field; the input and its rule.
    { module: 'address', field: 'fax', files: [`${modules('address')}/address.entity.ts`, `${modules('address')}/address.inputs.ts`] },
    // The user's entity keeps no GraphQL decorators (identity columns live on it): its GraphQL type is
    // profile.types.ts. The property (the column and the field that reads it) ...
    { module: 'user', field: 'socialNetworkAId', files: [`${modules('user')}/profile.types.ts`, `${modules('user')}/user.entity.ts`] },
    // ... and the specification's name (the bound, the field's name, the input and its rule).
    {
      module: 'user',
      field: 'uSocialNetworkAId',
      files: [`${modules('user')}/profile.inputs.ts`, `${modules('user')}/profile.types.ts`, `${modules('user')}/user.entity.ts`],
    },
    // A team's image key: a column only (a team has no input).
    { module: 'team', field: 'imageKey', files: [`${modules('team')}/team.entity.ts`] },
    // A smart entry's PDF download flag: the entity (column and field), the input and its rule.
    {
      module: 'library',
      field: 'smartEntryDownloadPdf',
      files: [`${modules('library')}/library.entity.ts`, `${modules('library')}/library.inputs.ts`],
    },
  ])('when src/ is searched for $module $field, then only its entity and its input name it', ({ field, files }) => {
    expect(naming(SRC, field)).toEqual([...files].sort());
  });
});
