// docs/errors.md lists every identifier of the registry with the status the service answers and
// the GraphQL category of each status, and shows the code's tables themselves: the categories by
// status and the identifiers of a document refused before it runs.
import fs from 'node:fs';
import path from 'node:path';
import { CATEGORY_BY_STATUS, DOCUMENT_ERROR_CODES, ERROR_REGISTRY } from '../../src/core/errors';

const doc = fs.readFileSync(path.join(__dirname, '../../docs/errors.md'), 'utf8');

/** The rows of the table whose header row is `header`, as their cells (backquotes dropped). */
function table(header: string): string[][] {
  const lines = doc.split('\n');
  const start = lines.indexOf(header);
  expect({ header, found: start >= 0 }).toEqual({ header, found: true });
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .slice(1, -1)
        .split(' | ')
        .map((cell) => cell.trim().replace(/`/g, '')),
    );
  }
  return rows;
}

it('the error catalogue names every identifier with its status and the category of each status it is answered with', () => {
  const rows = new Map(table('| identifier | status | category | when |').map(([code, status, category]) => [code, { status, category }]));
  for (const [code, spec] of Object.entries(ERROR_REGISTRY)) {
    const statuses = rows.get(code)?.status.split(' / ') ?? [];
    expect({ code, status: statuses[0], category: rows.get(code)?.category }).toEqual({
      code,
      status: String(spec.status),
      category: statuses.map((s) => CATEGORY_BY_STATUS[Number(s) as keyof typeof CATEGORY_BY_STATUS]).join(' / '),
    });
    expect(spec.category).toBe(CATEGORY_BY_STATUS[spec.status]);
  }
  expect([...rows.keys()].sort()).toEqual(Object.keys(ERROR_REGISTRY).sort());
});

it('shows the categories by status as the code has them', () => {
  expect(Object.fromEntries(table('| status | category |'))).toEqual(
    Object.fromEntries(Object.entries(CATEGORY_BY_STATUS).map(([status, category]) => [status, category])),
  );
});

it("shows the identifier of each of Apollo's codes for a document that does not parse or validate", () => {
  const rows = Object.fromEntries(table('| code | when | `errorCode` |').map(([code, , errorCode]) => [code, errorCode]));
  for (const [code, errorCode] of Object.entries(DOCUMENT_ERROR_CODES))
    expect({ code, errorCode: rows[code] }).toEqual({ code, errorCode });
});
