// The SQL of a module's queries as committed text (schema/sql/<module>.sql, `npm run sql`), so a
// review reads the SQL a change makes, as immich commits its generated queries: each query under
// its export's name, as PostgreSQL receives it, one clause a line.
import type { EntityManager } from '@mikro-orm/core';
import { Query } from './sql';

/** The clauses that start a line (nested ones indented by their depth in parentheses). */
const CLAUSE =
  /^(?:select|from|inner join|left join|cross join|join|where|group by|having|order by|limit|offset|union all|union|returning|with|on conflict|set|values)\b/;

/** `sql` with a line break before each clause, outside quoted names and strings. */
export function formatSql(sql: string): string {
  let out = '';
  let depth = 0;
  let quote: string | null = null;
  for (let i = 0; i < sql.length; i++) {
    const ch = sql[i];
    if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (ch === ' ') {
      // A clause of several words (`left join`) is written whole, so its last word starts no line.
      const clause = CLAUSE.exec(sql.slice(i + 1, i + 20))?.[0];
      if (clause) {
        out += `\n${'  '.repeat(depth + 1)}${clause}`;
        i += clause.length;
        continue;
      }
    }
    out += ch;
  }
  return out;
}

/** The text of schema/sql/<module>.sql for a module's queries file's exports; null when it exports no query. */
export function queriesText(em: EntityManager, module: string, exports: Record<string, unknown>): string | null {
  const queries = Object.entries(exports).filter((e): e is [string, Query<unknown, unknown>] => e[1] instanceof Query);
  if (!queries.length) return null;
  const parts = queries.map(([name, query]) => `-- ${name}${query.options.prepared ? ' (prepared)' : ''}\n${formatSql(query.sql(em))};\n`);
  return `-- The SQL of src/modules/${module}/${module}.queries.ts, written by \`npm run sql\`; a test fails when it is stale.\n\n${parts.join('\n')}`;
}
