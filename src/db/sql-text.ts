// The SQL of a module's queries as committed text (schema/sql/<module>.sql, `npm run sql`), so a
// review reads the SQL a change makes, as immich commits its generated queries: each query under
// its export's name, as PostgreSQL receives it, one clause a line.
import type { EntityManager } from '@mikro-orm/core';
import { KeysetWindow, type WindowShape } from './keyset';
import { Query } from './sql';

/** The shapes of a keyset window committed as text (every shape is compiled alike): a first page, the next, a last page back. */
const WINDOW_SHAPES: [WindowShape, string][] = [
  [{ backward: false, after: false, before: false, counted: true }, 'first page'],
  [{ backward: false, after: true, before: false, counted: true }, 'first after a cursor'],
  [{ backward: true, after: false, before: true, counted: true }, 'last before a cursor'],
];

/** The clauses that start a line (nested ones indented by their depth in parentheses). */
const CLAUSE =
  /^(?:select|from|inner join|left join|cross join|join|where|group by|having|order by|limit|offset|union all|union|returning|with(?! ordinality)|on conflict|set|values)\b/;

/** `sql` with a line break before each clause, outside quoted names and strings. */
export function formatSql(sql: string): string {
  let out = '';
  // Each open parenthesis: whether it holds a statement (a subquery), whose clauses start lines,
  // or an expression (`extract(epoch from ...)`), whose words do not.
  const open: boolean[] = [];
  let quote: string | null = null;
  for (let i = 0; i < sql.length; i++) {
    const ch = sql[i];
    if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '(') open.push(/^(?:select|with|update|insert|delete|values)\b/.test(sql.slice(i + 1, i + 8)));
    else if (ch === ')') open.pop();
    else if (ch === ' ' && open.every(Boolean)) {
      const depth = open.length;
      // A clause of several words (`left join`) is written whole, so its last word starts no line.
      const clause = CLAUSE.exec(sql.slice(i + 1, i + 20))?.[0];
      // `is distinct from` and `is not distinct from` are one operator.
      if (clause && !(clause === 'from' && / distinct$/.test(out))) {
        out += `\n${'  '.repeat(depth + 1)}${clause}`;
        i += clause.length;
        continue;
      }
    }
    out += ch;
  }
  return out;
}

/** Whether `value` is a plain object of queries (recommendedCompanies: its packed and plain forms). */
const isQuerySet = (value: unknown): value is Record<string, Query<unknown, unknown>> =>
  typeof value === 'object' &&
  value !== null &&
  Object.getPrototypeOf(value) === Object.prototype &&
  Object.values(value).length > 0 &&
  Object.values(value).every((q) => q instanceof Query);

/** The text of schema/sql/<module>.sql for a module's queries file's exports; null when it exports no query. */
export function queriesText(em: EntityManager, module: string, exports: Record<string, unknown>): string | null {
  const queries = Object.entries(exports).flatMap(([name, query]): [string, Query<unknown, unknown>][] => {
    if (query instanceof Query) return [[name, query]];
    // A set of queries made together (an object of them): each under `name.key`. Not the whole
    // module again, as Node's import of a CommonJS file also gives it (`default`, `module.exports`).
    if (name !== 'default' && name !== 'module.exports' && isQuerySet(query))
      return Object.entries(query).map(([key, q]) => [`${name}.${key}`, q]);
    if (!(query instanceof KeysetWindow)) return [];
    const window = query as KeysetWindow<unknown, unknown>;
    return WINDOW_SHAPES.map(([shape, as]) => [`${name}, ${as}`, window.query(shape) as Query<unknown, unknown>]);
  });
  if (!queries.length) return null;
  const parts = queries.map(([name, query]) => `-- ${name}${query.options.prepared ? ' (prepared)' : ''}\n${formatSql(query.sql(em))};\n`);
  return `-- The SQL of src/modules/${module}/${module}.queries.ts, written by \`npm run sql\`; a test fails when it is stale.\n\n${parts.join('\n')}`;
}
