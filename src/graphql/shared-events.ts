// Subscriptions whose events one execution can answer for every subscriber. A subscription field
// says its events are the same for everyone (the field's extensions: SHARED_EVENTS), as the inbox's
// notificationReceived does: its events are items, one object for all the recipients it reaches,
// and its resolver hands the item on. An operation on it is then the same for everyone when every
// other field it selects is read off its parent (no resolver: nothing of the caller's is asked),
// so one execution of an event, with the same variables, answers every subscriber
// (src/http/live-execution.ts). A field with a resolver (InboxNotification.id names the caller's
// inbox) makes each subscriber's execution its own.
import {
  isAbstractType,
  isObjectType,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type GraphQLField,
  type GraphQLSchema,
} from 'graphql';

/** The extension a subscription field sets (true) when its events and its resolver are the same for every subscriber. */
export const SHARED_EVENTS = 'sharedEvents';

/**
 * Whether every operation of `document` (a valid subscription document) answers an event the same
 * for every subscriber: its subscription field has SHARED_EVENTS and every other field it (or a
 * fragment of the document) selects has no resolver, on any type that may stand there (a field of
 * an interface or union is resolved by the object type's). __typename is read off the type.
 */
export function sameForEveryone(schema: GraphQLSchema, document: DocumentNode): boolean {
  const root = schema.getSubscriptionType();
  const typeInfo = new TypeInfo(schema);
  let same = true;
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field(node) {
        const name = node.name.value;
        if (name === '__typename') return;
        const parent = typeInfo.getParentType();
        if (parent === root) {
          if (typeInfo.getFieldDef()?.extensions[SHARED_EVENTS] !== true) same = false;
          return;
        }
        // On an interface, the field of each type that may stand there (their resolvers run, not the interface's).
        const types = !parent ? [] : isAbstractType(parent) ? schema.getPossibleTypes(parent) : isObjectType(parent) ? [parent] : [];
        if (!types.length || types.some((type) => type.getFields()[name]?.resolve)) same = false;
      },
    }),
  );
  return same;
}

/**
 * Carries the subscription fields' SHARED_EVENTS from the schema type-graphql built to the one
 * rebuilt from its SDL (the federation subgraph: built from text, it has no extensions).
 */
export function carrySharedEvents(from: GraphQLSchema, to: GraphQLSchema): void {
  const target = to.getSubscriptionType()?.getFields() ?? {};
  for (const [name, field] of Object.entries(from.getSubscriptionType()?.getFields() ?? {})) {
    const rebuilt: { extensions: GraphQLField<unknown, unknown>['extensions'] } | undefined = target[name];
    if (field.extensions[SHARED_EVENTS] === true && rebuilt) rebuilt.extensions = { ...rebuilt.extensions, [SHARED_EVENTS]: true };
  }
}
