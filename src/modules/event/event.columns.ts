// Which column each field of an event's views reads, said on the field itself (event.types.ts),
// beside its name in the specification's words: the views name their fields as the specification
// does, the entities as the service does, and nothing else links the two. The
// queries (event.queries.ts) select every such field from these declarations, the view's
// metadata (its fields in schema order, each with its type) and the entity's, so a column a view
// shows is named by its entity and its field only.
import { Float } from 'type-graphql';
import { sql, type AliasedExpression, type Expression } from 'kysely';
import { epochMillisOf } from '../../db/keyset';
import { fieldsOf, type GraphType } from '../../graphql/graph-fields';

type EntityClass<T> = new (...args: never[]) => T;

/** A field that reads a column: the entity and its property (a column, or a relation's key). */
interface ColumnRead {
  entity: EntityClass<object>;
  property: string;
}

/** The column reads each view class declares, by field. */
const byClass = new Map<GraphType, Map<string, ColumnRead>>();

/** Declares that the field holds the value of the entity's property: a column, or a relation's key. */
export function ColumnOf<T extends object>(entity: EntityClass<T>, property: keyof T & string): PropertyDecorator {
  return (target, field) => {
    const cls = target.constructor as GraphType;
    const reads = byClass.get(cls) ?? byClass.set(cls, new Map()).get(cls)!;
    reads.set(String(field), { entity, property });
  };
}

/** The column reads of `view` and of the classes it extends, by field. */
function columnReads(view: GraphType): Map<string, ColumnRead> {
  const parent: unknown = Object.getPrototypeOf(view);
  const inherited = typeof parent === 'function' && parent !== Function.prototype ? columnReads(parent as GraphType) : new Map();
  return new Map([...inherited, ...(byClass.get(view) ?? [])]);
}

/**
 * The fields of `view` that read columns of `entity`, as selections of a query (`ref` names a
 * property of the entity in the query): each column under its field's name, as the field holds it.
 * An instant (a Date field) comes as epoch milliseconds (epochMillisOf), for the caller to make a
 * Date; a decimal read as a Float field as a float8, which the driver answers as a number. Built
 * when a query is first compiled, never per request.
 */
export function columnSelect<T extends object>(
  view: GraphType,
  entity: EntityClass<T>,
  ref: (property: keyof T & string) => Expression<unknown>,
): AliasedExpression<unknown, string>[] {
  const reads = columnReads(view);
  return fieldsOf(view).flatMap((f) => {
    const read = reads.get(f.property);
    if (read?.entity !== entity) return [];
    const column = ref(read.property as keyof T & string);
    const value = f.type === Date ? epochMillisOf(column as Expression<Date>) : f.type === Float ? sql`${column}::float8` : sql`${column}`;
    return [value.as(f.name)];
  });
}
