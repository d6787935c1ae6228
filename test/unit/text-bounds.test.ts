// One character count (issue 39): a bound on user text counts characters as PostgreSQL does
// (`charLength`, or a `maxLength` rule on the input), never UTF-16 units with `.length`, where an
// emoji counts twice. This scans src/ for every `.length` compared with a bound and fails on any
// not listed below with the reason `.length` is right there (a list, bytes, or text that is ASCII
// by construction). A new `.length` bound on user text fails here until it uses charLength.
import fs from 'node:fs';
import path from 'node:path';

const SRC = path.join(__dirname, '..', '..', 'src');

/** `file: expression` of each `.length` comparison that is not about user text, with why. */
const NOT_USER_TEXT: Record<string, string> = {
  'db/replicas.ts: history.length > 2': "the read routing's list of WAL positions, not text",
  'http/idempotency.ts: key.length >= 2': 'an Idempotency-Key header: printable ASCII only, one unit a character',
  'http/idempotency.ts: key.length < 1': 'an Idempotency-Key header: printable ASCII only, one unit a character',
  'http/idempotency.ts: key.length > IDEMPOTENCY_LIMITS.key': 'an Idempotency-Key header: printable ASCII only, one unit a character',
  'modules/identity/principal.ts: raw.length > 512': 'a credential header value: Latin-1, one unit a character',
  'modules/identity/principal.ts: raw.length > 4096': 'a credential header value: Latin-1, one unit a character',
  'modules/identity/clients.ts: clientId.length <= 100': 'a client id checked before a lookup; longer ids do not exist',
  'modules/identity/clients.ts: clientId.length > 100': 'a client id checked before a lookup; longer ids do not exist',
  'modules/identity/inbound.ts: state.length > 512': 'our own state handle (base64url) checked before a lookup',
  'modules/discovery/identifier-values.ts: values.length > MAX_VALUES': 'a list',
  'modules/notification/inbox.live.ts: userIds.length <= MAX_IDS_IN_MESSAGE': 'a list',
  'modules/notification/inbox.live.ts: queue.length >= MAX_QUEUED_ITEMS': 'a list',
  'modules/library/upload.service.ts: chars.length <= LIMITS.filename': 'chars is the name spread into code points',
  'modules/support-group/support-group.form.ts: parsed.length > SUPPORT_GROUP_LIMITS.consents': 'a list',
  'modules/storage/blob-store.ts: chunk.length > options.maxBytes': 'bytes',
  'modules/directory/contact-address.service.ts: uuids.length > MAX_COPY': 'a list',
  "rest/route-binding.ts: 'wholeBody').length > 1": 'a list',
  'rest/answer/whole-list-body.ts: items.length < asked': 'a list',
  'graphql/jit-executor.ts: name.length > 100': 'a GraphQL operation name: [_A-Za-z0-9] only',
  'graphql/connection.ts: rows.length > request.size': 'a list',
  'graphql/node.ts: id.length > MAX_ID_LENGTH': 'a global id, refused unless base64url (ASCII: a character a byte)',
  'graphql/rules.ts: value.length > rule.maxItems': 'a list',
  'config.ts: pathname.length > 1': 'a URL path (ASCII once parsed)',
  'config.ts: s.length >= 32': 'a secret of the operator, at least 32 units',
  'core/text.ts: chars.length <= max': 'chars is the text spread into code points',
};

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'explorer' ? [] : sources(full);
    return e.name.endsWith('.ts') ? [full] : [];
  });
}

/** `x.length > N` (or `<`, `>=`, `<=`, or the bound first) where the other side is not 0. */
const COMPARISON = /([\w.')\]]+)\.length\s*(>=|<=|>|<)\s*([\w.]+)/g;

describe('text bounds count characters', () => {
  const found: string[] = [];
  for (const file of sources(SRC)) {
    const rel = path.relative(SRC, file).split(path.sep).join('/');
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(COMPARISON)) {
      if (m[3] === '0') continue;
      // The last two segments of the left side name it well enough to list it.
      const left = m[1].split('.').slice(-1)[0];
      found.push(`${rel}: ${left}.length ${m[2]} ${m[3]}`);
    }
  }

  it('finds the comparisons it scans for (the scan itself works)', () => {
    expect(found.length).toBeGreaterThan(10);
  });

  it('has no `.length` bound on user text: every one found is listed with its reason', () => {
    const unlisted = found.filter((f) => !(f in NOT_USER_TEXT));
    expect(unlisted).toEqual([]);
  });

  it('lists nothing that is no longer there', () => {
    expect(Object.keys(NOT_USER_TEXT).filter((k) => !found.includes(k))).toEqual([]);
  });
});
