// docs/errors.md lists every identifier of the registry with the status the service answers.
import fs from 'node:fs';
import path from 'node:path';
import { ERROR_REGISTRY } from '../../src/graphql/errors';

it('the error catalogue names every identifier with its status', () => {
  const doc = fs.readFileSync(path.join(__dirname, '../../docs/errors.md'), 'utf8');
  const rows = new Map([...doc.matchAll(/^\| `([A-Za-z]+)` \| ([0-9 /]+) \|/gm)].map((m) => [m[1], m[2].trim()]));
  for (const [code, spec] of Object.entries(ERROR_REGISTRY)) {
    expect({ code, listed: rows.get(code)?.split(' / ')[0] }).toEqual({ code, listed: String(spec.status) });
  }
  expect([...rows.keys()].sort()).toEqual(Object.keys(ERROR_REGISTRY).sort());
});
