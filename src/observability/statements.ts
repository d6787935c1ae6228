// Process-wide count of SQL statements sent (exported as db_statements_total; the benchmark
// divides it by requests). A plain counter: the ORM hook runs on every statement.
let statements = 0;

export function countStatement(): void {
  statements++;
}

export function statementCount(): number {
  return statements;
}
