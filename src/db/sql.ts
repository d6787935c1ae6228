// Hand-written SQL: Kysely as MikroORM 7 configures it (em.getKysely's own plugin: entity names
// for tables, property names for columns), typed from the entities, compiled once and run through
// the request's EntityManager. Building a find (criteria processing, MikroORM's query builder, SQL
// rendering) costs about 0.3 ms of CPU per statement, more than PostgreSQL takes to answer the hot
// reads, and hydrating entities (identity map, change-set snapshots) more again
// (docs/performance.md); a query here is built and compiled by Kysely once, on first use, and each
// run only binds its parameters. Which reads take this path: docs/development.md, "Reads and writes".
//
// Every statement goes through `send`: MikroORM's connection and the request's transaction (what
// em.getKysely() binds to), its query log (the tracing spans), the onQuery hook (statement
// counting) and its error conversion. A query's SQL is committed as text (schema/sql/, `npm run sql`;
// a test compares), so a review shows the SQL a change makes.
//
// A `prepared` query goes as a named prepared statement, which lives on one server connection. A
// pooler in transaction mode (PgBouncer, most managed poolers) hands server connections from client
// to client between transactions, so there (DATABASE_POOLING=transaction, told through setPooling)
// the same statements go unnamed: same text, same parameters, same rows; only PostgreSQL's plan
// cache is lost.
import { createHash } from 'node:crypto';
import { ReferenceKind, type EntityManager, type EntityMetadata, type EntityProperty, type MikroORM } from '@mikro-orm/core';
import { MikroKyselyPlugin, PostgreSqlPlatform, type AbstractSqlConnection, type SqlEntityManager } from '@mikro-orm/postgresql';
import {
  AliasNode,
  expressionBuilder,
  ColumnNode,
  IdentifierNode,
  ReferenceNode,
  SelectionNode,
  SelectQueryNode,
  sql,
  TableNode,
  type RawBuilder,
  type ColumnType,
  type Compilable,
  type Expression,
  type CompiledQuery,
  type Kysely,
  type KyselyPlugin,
  type OperationNode,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type SelectQueryBuilder,
  type UnknownRow,
} from 'kysely';
import type { Config } from '../config';
import type { OrderColumn } from './paging';
import type { BuildHelpers, RowOf } from './sql-types';
import { KeysetWindow, type Candidates } from './keyset';
import { fallbackFor } from './replicas';

export type { BuildHelpers, RowOf } from './sql-types';

/**
 * Kysely's database type over entities by name, named as MikroORM's plugin names them: each a table
 * of its rows (RowOf). An insert may leave any column out: the entities do not say which have
 * defaults (a generated key, `defaultRaw`); the database does.
 */
export type Tables<E extends Record<string, object>> = { [K in keyof E]: TableOf<RowOf<E[K]>> };
type TableOf<R> = { [C in keyof R]: ColumnType<R[C], R[C] | undefined, R[C]> };

type EntityClass = abstract new (...args: never[]) => object;

/** The names queries use: MikroORM's plugin maps them to the tables and columns (MikroKyselyPluginOptions). */
const NAMES = { tableNamingStrategy: 'entity', columnNamingStrategy: 'property' } as const;

/**
 * Each column a query selects by reference alone (`select('u.firstName')`), under its property's
 * name (`"u"."first_name" as "firstName"`), as Kysely types the row; and which selected columns
 * are instants (Date properties), which PostgreSQL sends as text: `send` makes them Dates, as
 * MikroORM's own result mapper does. Runs before MikroORM's plugin, on entity and property names.
 */
class PropertyNames implements KyselyPlugin {
  /** The Date-typed output columns of the last query transformed (read right after, by `compile`). */
  instants: string[] = [];

  constructor(private readonly em: EntityManager) {}

  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    this.instants = [];
    if (!SelectQueryNode.is(node) || !node.selections) return node;
    const entities = new Map<string, EntityMetadata>();
    for (const item of [...(node.from?.froms ?? []), ...(node.joins ?? []).map((j) => j.table)]) {
      const [table, alias] = AliasNode.is(item) ? [item.node, item.alias] : [item, undefined];
      if (!TableNode.is(table)) continue;
      const meta = this.em.getMetadata().getByClassName(table.table.identifier.name, false);
      const name = alias && IdentifierNode.is(alias) ? alias.name : table.table.identifier.name;
      if (meta) entities.set(name, meta);
    }
    const propertyOf = (ref: OperationNode) => {
      if (!ReferenceNode.is(ref) || !ColumnNode.is(ref.column) || !ref.table) return undefined;
      return entities.get(ref.table.table.identifier.name)?.properties[ref.column.column.name as never];
    };
    const selections = node.selections.map((selection) => {
      const inner = selection.selection;
      const [ref, alias] = AliasNode.is(inner) && IdentifierNode.is(inner.alias) ? [inner.node, inner.alias.name] : [inner, undefined];
      const prop = propertyOf(ref);
      if (!prop) return selection;
      if (prop.runtimeType === 'Date') this.instants.push(alias ?? prop.name);
      return alias ? selection : SelectionNode.create(AliasNode.create(ref, IdentifierNode.create(prop.name)));
    });
    return { ...node, selections };
  }

  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return result;
  }
}

/**
 * The query's text and parameters as PostgreSQL gets them (`$1`, `$2`, ...), with its table and
 * column names from the entities (MikroORM's plugin), and its instant columns (PropertyNames).
 */
function compile(
  em: EntityManager,
  query: (db: Kysely<never>, helpers: BuildHelpers) => Compilable<unknown>,
): { compiled: CompiledQuery; instants: string[] } {
  const names = new PropertyNames(em);
  const db = (em as SqlEntityManager)
    .getKysely()
    .withPlugin(names)
    .withPlugin(new MikroKyselyPlugin(em as SqlEntityManager, NAMES)) as unknown as Kysely<never>;
  const compiled = query(db, helpers(em)).compile();
  return { compiled, instants: names.instants };
}

/**
 * The properties of the columns an entity maps (its scalars and the keys of the relations it
 * owns), in declaration order: what `columns` selects and what a row of the entity holds.
 */
export function columnProps(meta: EntityMetadata): EntityProperty[] {
  return meta.props.filter(
    (p) =>
      p.persist !== false &&
      (p.kind === ReferenceKind.SCALAR || p.kind === ReferenceKind.MANY_TO_ONE || (p.kind === ReferenceKind.ONE_TO_ONE && p.owner)),
  );
}

function helpers(em: EntityManager): BuildHelpers {
  return {
    columns: (entity, alias) => columnProps(em.getMetadata().get(entity)).map((p) => `${alias}.${p.name}` as never),
    instants: (entity) => new Set(columnProps(em.getMetadata().get(entity)).flatMap((p) => (p.runtimeType === 'Date' ? [p.name] : []))),
  };
}

/** A parameter of a compiled query, by name: what `p.name` stands for while the query is built. */
class Slot {
  constructor(readonly name: string) {}
}

/** The parameters of a query as it is built: `p.userId` is the value passed as `userId` at each run. */
function slots<P>(): P {
  const made = new Map<string, Slot>();
  return new Proxy(
    {},
    {
      get: (_, name) => (typeof name === 'string' ? (made.get(name) ?? made.set(name, new Slot(name)).get(name)) : undefined),
    },
  ) as P;
}

/** How a compiled query is sent and its rows answered. */
export interface QueryOptions {
  /**
   * Send it as a named prepared statement: for a statement whose plan cannot depend on its values
   * (none, or rows looked up by their keys; a list of keys is one array parameter, `= any($1::int[])`).
   * Otherwise PostgreSQL plans it for its values each time: after five runs of a prepared statement
   * it may keep one plan for all values, which for a page of the events a user is invited to
   * (`limit $3 offset $4` over two filters) was a hundred times slower.
   */
  prepared?: boolean;
}

/** A query built once (with Kysely, on first use) and run with its parameters: `query.run(em, { userId })`. */
export class Query<P, R> {
  #compiled: { sql: string; values: (args: P) => unknown[]; instants: string[] } | undefined;

  constructor(
    private readonly build: (db: Kysely<never>, p: P, helpers: BuildHelpers) => Compilable<R>,
    readonly options: QueryOptions = {},
  ) {}

  /** The statement's text, `$1`, `$2` for the parameters (what schema/sql/ holds). */
  sql(em: EntityManager): string {
    return this.compiled(em).sql;
  }

  /** The statement's text and its parameters for `args`, as `run` sends them (to explain its plan, say). */
  statement(em: EntityManager, ...args: P extends void ? [] : [args: P]): { sql: string; params: unknown[] } {
    const { sql, values } = this.compiled(em);
    return { sql, params: values(args[0] as P) };
  }

  private compiled(em: EntityManager) {
    if (this.#compiled) return this.#compiled;
    const { compiled, instants } = compile(em, (db, h) => this.build(db, slots<P>(), h));
    const parameters = compiled.parameters;
    // Each parameter is a slot's value at each run, or a value the query holds itself.
    const bound = parameters.some((v) => v instanceof Slot);
    const values = bound
      ? (args: P) => parameters.map((v) => (v instanceof Slot ? (args as Record<string, unknown>)[v.name] : v))
      : () => [...parameters];
    return (this.#compiled = { sql: compiled.sql, values, instants });
  }

  /** The rows for `args`, on `em`'s connection and transaction, counted and traced like every statement. */
  async run(em: EntityManager, ...args: P extends void ? [] : [args: P]): Promise<R[]> {
    const { sql, values, instants } = this.compiled(em);
    const rows = await send<R>(em, sql, values(args[0] as P), this.options.prepared === true);
    if (instants.length) instantsToDates(em, rows, instants);
    return rows;
  }
}

/** The instant columns of `rows` (timestamptz text, or null) as Dates, in place. */
function instantsToDates(em: EntityManager, rows: unknown[], instants: string[]): void {
  const platform = em.getPlatform();
  for (const row of rows as Record<string, unknown>[])
    for (const key of instants) {
      const value = row[key];
      if (value !== null && value !== undefined && !(value instanceof Date)) row[key] = platform.parseDate(value as string);
    }
}

/**
 * Queries over a module's own entities (keyed by their class names): `compiled` builds each with
 * Kysely typed from those entities. A module's queries live in its `<m>.queries.ts`; another
 * module's tables are reached through a fragment that module exports: an expression it builds with
 * `eb` over its own entities, taking the asker's columns and parameters as expressions
 * (`eb.ref('c.company')`, `eb.val(p.userId)`). Its aliases start with the owner's name, so they
 * cannot hide one of the asker's.
 */
export function queriesOf<E extends Record<string, EntityClass>>(entities: E) {
  type DB = Tables<{ [K in keyof E]: InstanceType<E[K]> }>;
  for (const [name, entity] of Object.entries(entities))
    if (entity.name !== name) throw new Error(`queriesOf: ${entity.name} is listed as ${name}`);
  /**
   * A query written once with `db` (Kysely over these entities) and `p` (its named parameters,
   * `p.userId`), compiled on first use; `run(em, { userId })` binds the values.
   */
  /** Expressions over these entities, for the fragments a module exports to another's queries (`eb.exists(eb.selectFrom(...))`). */
  const eb = expressionBuilder<DB, never>();
  const compiled = <P = void, R = unknown>(build: (db: Kysely<DB>, p: P, helpers: BuildHelpers) => Compilable<R>, options?: QueryOptions) =>
    new Query<P, R>(build as never, options);
  /**
   * The pages of a list under many parents, one statement for all (src/db/keyset.ts): `candidates`
   * selects one parent's rows (`parent` is its id), with the `order` columns; R is a row.
   */
  const windowed = <P, R>(
    candidates: Candidates<DB, P>,
    order: readonly OrderColumn[],
    total?: (parent: Expression<number>) => Expression<number>,
    options: QueryOptions & {
      around?: (db: Kysely<DB>, p: P, window: SelectQueryBuilder<never, never, object>, helpers: BuildHelpers) => Compilable<object>;
    } = {},
  ) =>
    new KeysetWindow<P, R>(
      (build) => new Query(build as never, { prepared: options.prepared }) as never,
      candidates as never,
      order,
      total,
      options.around as never,
    );
  return { compiled, eb, windowed };
}

/** A PostgreSQL int[] literal for an `anyOf(..., 'int')` parameter: ids are integers, nothing to escape. */
export const intArray = (ids: readonly number[]) => `{${ids.map((id) => Math.trunc(id)).join(',')}}`;

/**
 * `any($n::type[])`, the right side of `=` against a list of values given as one parameter (an
 * array, or an intArray text): one statement text whatever the list's length, where `in ($1, $2,
 * ...)` would be one per length. Typed to stand against any column.
 */
export const anyOf = (list: unknown, type: 'int' | 'text' | 'uuid'): RawBuilder<never> => sql<never>`any(${list}::${sql.raw(type)}[])`;

/** How the connections of an ORM are pooled (DATABASE_POOLING): a session pooler or none, or a transaction pooler. */
export type Pooling = Config['databasePooling'];

/** The configurations (shared by an ORM and every fork of its EntityManager) whose connections go through a transaction pooler. */
const transactionPooled = new WeakSet<object>();

/**
 * Tells `send` how `orm`'s connections are pooled. With 'transaction' its statements go unnamed:
 * a named statement prepared on one server connection is unknown on the next the pooler hands out
 * ("prepared statement ... does not exist"), or already there from another client ("... already
 * exists"). Call it before the first statement (src/services.ts does).
 */
export function setPooling(orm: MikroORM, pooling: Pooling): void {
  if (pooling === 'transaction') transactionPooled.add(orm.config);
  else transactionPooled.delete(orm.config);
}

/** Statement names of prepared statements, by text. */
const statementNames = new Map<string, string>();

/**
 * How `send` sends the statement whose onQuery hook runs now (the bench's capture replays each
 * statement the same way): its parameter list and how. Kept for that one synchronous call, not in
 * a WeakMap by list, whose entry a statement was work for every scavenge.
 */
const sending: { params: readonly unknown[] | null; as: 'named' | 'unnamed' } = { params: null, as: 'unnamed' };

/** How a statement whose parameters (as the ORM's onQuery hook sees them) `send` sent went: named, unnamed, or not by `send`. */
export const sendingOf = (params: readonly unknown[]): 'named' | 'unnamed' | undefined =>
  sending.params === params ? sending.as : undefined;

/**
 * Runs `text` (PostgreSQL's `$1`, `$2` placeholders) with `params` sent apart from the text, on
 * `em`'s connection, inside its transaction when it has one (the client em.getKysely() gives),
 * through MikroORM's query log and onQuery hook. `prepared`: as a named prepared statement, parsed
 * and planned once per pooled connection; its text must come from a bounded set (built from code,
 * never from values). On the embedded PGlite and behind a transaction pooler (setPooling) it goes
 * unnamed.
 */
export async function send<R>(em: EntityManager, text: string, params: readonly unknown[], prepared: boolean): Promise<R[]> {
  // Outside a transaction a SELECT asks for a read connection: a replica when the request's reads
  // are routed to one (src/db/replicas.ts), else the primary; one that fails there is run again on
  // the primary.
  const transaction = em.getTransactionContext<Kysely<never>>();
  const read = !transaction && readsOnly(text);
  const connection = em.getConnection(read ? 'read' : 'write') as AbstractSqlConnection;
  try {
    return await sendOn<R>(em, connection, transaction, text, params, prepared);
  } catch (err) {
    const fallback = read ? fallbackFor(connection, err) : null;
    if (!fallback) throw err;
    return sendOn<R>(em, fallback as AbstractSqlConnection, undefined, text, params, prepared);
  }
}

/** Statements a standby can answer: a SELECT that locks no row and calls none of the functions that write. */
const READ_ONLY = /^\s*select\b/i;
const WRITES =
  /\bfor\s+(update|share|no\s+key\s+update|key\s+share)\b|\b(nextval|setval|pg_notify|pg_advisory\w*|pg_try_advisory\w*|set_config)\s*\(/i;
const readOnlyTexts = new Map<string, boolean>();

/** Whether `text` only reads (so it may run on a replica); answered once per text. */
function readsOnly(text: string): boolean {
  let known = readOnlyTexts.get(text);
  if (known === undefined) {
    known = READ_ONLY.test(text) && !WRITES.test(text);
    if (readOnlyTexts.size < 10_000) readOnlyTexts.set(text, known);
  }
  return known;
}

async function sendOn<R>(
  em: EntityManager,
  connection: AbstractSqlConnection,
  transaction: Kysely<never> | undefined,
  text: string,
  params: readonly unknown[],
  prepared: boolean,
): Promise<R[]> {
  await connection.ensureConnection();
  const values = [...params];
  const named = prepared && em.getPlatform() instanceof PostgreSqlPlatform && !transactionPooled.has(em.config);
  sending.params = values;
  sending.as = named ? 'named' : 'unnamed';
  try {
    em.config.get('onQuery')(text, values);
  } finally {
    sending.params = null;
  }
  let name = statementNames.get(text);
  if (named && !name) statementNames.set(text, (name = `q_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`));
  // pg takes a named statement as a query config ({ name, text }) where the text would be; Kysely
  // hands `sql` to pg's query() as it is. The node is what MikroORM itself builds for raw SQL.
  const compiled = {
    sql: (named ? { name, text } : text) as unknown as string,
    parameters: values,
    query: { kind: 'RawNode' as const, sqlFragments: [text], parameters: [] },
    queryId: { queryId: name ?? '' },
  };
  const client = transaction ?? connection.getClient();
  // MikroORM's own wrapper of a statement (its query log, which the tracing spans come from);
  // protected in its types, so reached through this view of the connection.
  const logged = connection as unknown as { executeQuery<T>(query: string, cb: () => Promise<T>, context: object): Promise<T> };
  return logged.executeQuery(text, async () => (await client.executeQuery<R>(compiled)).rows, { query: text, params: values });
}
