// Predicates on one module's tables for the statements of modules that may not import it (it
// imports them: the connection module needs discovery's matching and company's entity, so neither
// can ask the connection module's door without a cycle). The owner declares them in its
// definition (`sql: { ... }`), as a module declares its hooks; src/modules/index.ts collects them
// when the module list is built, before any statement is (statement texts are written on first
// use); the asker calls sqlDoor(name) inside its statement's builder. Neither names the other's
// tables in SQL (test/unit/sql-owners.test.ts), and the asker never imports the owner.
import type { NamesOf } from '../db/lean';

/**
 * A predicate over the owner's tables. `n` gives table and column names from the entities'
 * metadata; the other arguments are SQL expressions of the asker's statement (a column of its
 * own, or a placeholder).
 */
type Predicate = (n: NamesOf, companyId: string, userId: string) => string;

export interface SqlDoors {
  /** `exists (...)`: user `userId` has a connection of any status to company `companyId`. */
  hasConnection: Predicate;
  /**
   * The connection of a user to a company, as a left join (at most one row): `join(companyId,
   * userId)` is the join, `status` its status column (null when there is no connection).
   */
  connectionStatus: (n: NamesOf) => { join: (companyId: string, userId: string) => string; status: string };
}

const provided: Partial<SqlDoors> = {};

/** Collects the doors the modules declare (src/modules/index.ts); a door declared twice is a mistake. */
export function provideSqlDoors(declared: readonly (Partial<SqlDoors> | undefined)[]): void {
  for (const doors of declared) {
    for (const [name, door] of Object.entries(doors ?? {}) as [keyof SqlDoors, SqlDoors[keyof SqlDoors]][]) {
      if (provided[name] && provided[name] !== door) throw new Error(`Two modules declare the SQL door ${name}`);
      (provided as Record<string, unknown>)[name] = door;
    }
  }
}

/** The door a module declared under `name`. */
export function sqlDoor<K extends keyof SqlDoors>(name: K): SqlDoors[K] {
  const door = provided[name];
  if (!door) throw new Error(`No module declares the SQL door ${name} (src/core/sql-doors.ts)`);
  return door;
}
