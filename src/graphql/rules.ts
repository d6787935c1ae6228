// Each input field's constraints, declared once beside its @Field with @Rule({...}), and
// enforced once: type-graphql calls validateArgument (buildSchema's validateFn) for every
// argument of every resolver, so /graphql and the REST facade (which runs the same documents)
// refuse a value alike, naming the field with the specification's identifier. The OpenAPI
// document reads the same declarations (src/rest/json-schema.ts) and the GraphQL descriptions
// are completed from them (describeRules), so a bound is written in one place.
//
// What belongs here: rules about one field's own value (required, length, code list, pattern,
// range, number of items). Rules across fields (postcode vs postCode, a schedule needing its
// time zone) and rules about stored data (a team of the company) stay in the services.
import { getMetadataStorage } from 'type-graphql';
import { charLength } from '../core/text';
import { ServiceError, type ErrorCode } from '../core/errors';

export interface FieldRule {
  /** Required although the GraphQL type is nullable: null, absent, '' and blank text are missing (WSInvalidParameterException). */
  required?: boolean;
  /** Most characters, counted as PostgreSQL counts them (code points): WSFieldLengthException. */
  maxLength?: number;
  /** Only these codes (WSInvalidParameterException, or `code`). */
  oneOf?: readonly string[];
  /** oneOf compares regardless of case (the service stores the listed spelling). */
  anyCase?: boolean;
  /** The text must match (WSInvalidParameterException, or `code`). */
  pattern?: RegExp;
  /** What a value must be, for the message of a pattern or oneOf failure ("an e-mail address", "Y or N"). */
  format?: string;
  /** Text is measured and compared without its surrounding white space (the service stores it trimmed). */
  trim?: boolean;
  /** Least and most value of a number (WSInvalidParameterException). */
  min?: number;
  max?: number;
  /** Most items of a list: WSLimitExceededException. */
  maxItems?: number;
  /** Identifier of a oneOf or pattern failure, where the specification names another (WSUnsupportedTypeException). */
  code?: ErrorCode;
  /** The name errors give the field, when it is not the property's (emailParams.key). */
  field?: string;
}

type Constructor = abstract new (...args: never[]) => unknown;

const byClass = new Map<Constructor, Map<string, FieldRule>>();

/** Declares the rules of one input field. */
export function Rule(rule: FieldRule): PropertyDecorator {
  return (target, property) => {
    const cls = target.constructor as Constructor;
    const rules = byClass.get(cls) ?? byClass.set(cls, new Map()).get(cls)!;
    rules.set(String(property), rule);
  };
}

const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

function fail(code: ErrorCode, field: string, message: string): never {
  throw new ServiceError(code, message, { field });
}

/** Checks one value against its rule; throws the specification's identifier naming the field. */
export function checkRule(rule: FieldRule, value: unknown, property: string): void {
  const field = rule.field ?? property;
  if (rule.required && blank(value)) fail('WSInvalidParameterException', field, `${field} is required.`);
  // Absent: null, and for trimmed text nothing but blanks. Other text, blanks included, is checked.
  if (value === undefined || value === null || (rule.trim && blank(value))) return;
  if (Array.isArray(value)) {
    if (rule.maxItems !== undefined && value.length > rule.maxItems) {
      fail('WSLimitExceededException', field, `${field} holds at most ${rule.maxItems} items.`);
    }
    // Item rules (length, codes) apply to each text item of a list of scalars.
    for (const item of value) if (typeof item === 'string' || typeof item === 'number') checkScalar(rule, item, field);
    return;
  }
  checkScalar(rule, value, field);
}

function checkScalar(rule: FieldRule, value: unknown, field: string): void {
  if (typeof value === 'string') {
    const text = rule.trim ? value.trim() : value;
    if (rule.maxLength !== undefined && charLength(text) > rule.maxLength) {
      fail('WSFieldLengthException', field, `${field} must be at most ${rule.maxLength} characters.`);
    }
    if (rule.oneOf) {
      const v = rule.anyCase ? text.trim().toUpperCase() : text;
      const allowed = rule.anyCase ? rule.oneOf.map((c) => c.toUpperCase()) : rule.oneOf;
      if (!allowed.includes(v))
        fail(rule.code ?? 'WSInvalidParameterException', field, `${field} must be ${rule.format ?? `one of ${rule.oneOf.join(', ')}`}.`);
    }
    // '' is "no value" to the services (it erases an optional field); a pattern judges given text.
    if (rule.pattern && text !== '' && !rule.pattern.test(text)) {
      fail(rule.code ?? 'WSInvalidParameterException', field, `${field} must be ${rule.format ?? `of the form ${rule.pattern.source}`}.`);
    }
  }
  if (typeof value === 'number') {
    if ((rule.min !== undefined && value < rule.min) || (rule.max !== undefined && value > rule.max)) {
      const range =
        rule.max === undefined
          ? `at least ${rule.min}`
          : rule.min === undefined
            ? `at most ${rule.max}`
            : `from ${rule.min} to ${rule.max}`;
      fail(rule.code ?? 'WSInvalidParameterException', field, `${field} must be ${range}.`);
    }
  }
}

const withInherited = new Map<Constructor, Map<string, FieldRule> | undefined>();

/** The rules of a class's fields and of the fields it inherits (an args type may extend another); its own win. */
function rulesOfClass(cls: Constructor): Map<string, FieldRule> | undefined {
  if (withInherited.has(cls)) return withInherited.get(cls);
  let rules: Map<string, FieldRule> | undefined;
  for (let c: unknown = cls; typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
    const own = byClass.get(c as Constructor);
    if (own) rules = new Map([...own, ...(rules ?? [])]);
  }
  withInherited.set(cls, rules);
  return rules;
}

/** Validates an input object (and the input objects inside it) against the declared rules. */
export function validateInput(value: unknown, depth = 0): void {
  if (value === null || typeof value !== 'object' || depth > 16) return;
  if (Array.isArray(value)) {
    for (const item of value) validateInput(item, depth + 1);
    return;
  }
  const rules = rulesOfClass(value.constructor as Constructor);
  if (rules) for (const [property, rule] of rules) checkRule(rule, (value as Record<string, unknown>)[property], property);
  for (const v of Object.values(value)) if (v !== null && typeof v === 'object') validateInput(v, depth + 1);
}

/** buildSchema's validateFn: every argument of every resolver passes here. */
export function validateArgument(argValue: unknown): void {
  validateInput(argValue);
}

let byTypeName: Map<string, Map<string, FieldRule>> | undefined;

/** The rules of a GraphQL input type's fields (those it inherits too, as the validator applies them), by the type's GraphQL name. */
export function rulesOf(typeName: string): ReadonlyMap<string, FieldRule> | undefined {
  if (!byTypeName) {
    byTypeName = new Map();
    for (const t of getMetadataStorage().inputTypes) {
      const rules = rulesOfClass(t.target as Constructor);
      if (rules) byTypeName.set(t.name, rules);
    }
  }
  return byTypeName.get(typeName);
}

/** One declared rule, where it applies: an input type's field, or a field of an args class (arguments of a resolver). */
export interface DeclaredRule {
  kind: 'input' | 'args';
  /** The GraphQL input type's name, or the args class's name. */
  typeName: string;
  property: string;
  /** The field's name in the schema (the input field, or the argument). */
  fieldName: string;
  rule: FieldRule;
  /** For an args class: the fields taking its arguments, as schema coordinates (Query.sentNotifications). */
  usedBy?: string[];
}

/** Every rule of every input type and args class, inherited ones included (read-only: for tests and documentation). */
export function allRules(): DeclaredRule[] {
  const storage = getMetadataStorage();
  const schemaName = (cls: Constructor, property: string) => {
    for (let c: unknown = cls; typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
      const field = storage.fields.find((f) => f.target === c && f.name === property);
      if (field) return field.schemaName;
    }
    return property;
  };
  // Parameters reach their resolvers only when a schema is built: they are matched here by method.
  const objectTypeOf = (target: unknown) => storage.resolverClasses.find((c) => c.target === target)?.getObjectType?.()?.name ?? '?';
  const resolvers = [
    ...storage.queries.map((r) => ['Query', r] as const),
    ...storage.mutations.map((r) => ['Mutation', r] as const),
    ...storage.subscriptions.map((r) => ['Subscription', r] as const),
    ...storage.fieldResolvers.map((r) => [objectTypeOf(r.target), r] as const),
  ];
  const usedBy = (cls: Constructor) =>
    resolvers
      .filter(([, r]) =>
        storage.params.some((p) => p.target === r.target && p.methodName === r.methodName && p.kind === 'args' && p.getType() === cls),
      )
      .map(([type, r]) => `${type}.${r.schemaName}`);
  const out: DeclaredRule[] = [];
  for (const t of storage.inputTypes) {
    const cls = t.target as Constructor;
    for (const [property, rule] of rulesOfClass(cls) ?? [])
      out.push({ kind: 'input', typeName: t.name, property, fieldName: schemaName(cls, property), rule });
  }
  for (const t of storage.argumentTypes) {
    const cls = t.target as Constructor;
    for (const [property, rule] of rulesOfClass(cls) ?? [])
      out.push({ kind: 'args', typeName: t.name, property, fieldName: schemaName(cls, property), rule, usedBy: usedBy(cls) });
  }
  return out;
}

/** A sentence naming a rule, appended to the field's description in the schema. */
export function ruleText(rule: FieldRule): string {
  const parts: string[] = [];
  if (rule.required) parts.push('required');
  if (rule.maxLength !== undefined) parts.push(`at most ${rule.maxLength} characters`);
  if (rule.oneOf) parts.push(`one of ${rule.oneOf.join(', ')}${rule.anyCase ? ' (any case)' : ''}`);
  if (rule.min !== undefined || rule.max !== undefined) {
    parts.push(
      rule.max === undefined ? `at least ${rule.min}` : rule.min === undefined ? `at most ${rule.max}` : `${rule.min} to ${rule.max}`,
    );
  }
  if (rule.maxItems !== undefined) parts.push(`at most ${rule.maxItems} items`);
  return parts.length ? `(${parts.join('; ')}.)` : '';
}

/**
 * The length sentence of each field of a limits object, for descriptions that are not inputs
 * (output types, columns): worded as the input rules word it, read from the same constant.
 */
export function lengthNotes<T extends Record<string, number>>(limits: T): (field: keyof T) => string {
  return (field) => ruleText({ maxLength: limits[field] });
}

/**
 * Completes the description of every ruled input field with its rules, before the schema is
 * built, so the GraphQL documentation states the bounds the validator enforces.
 */
export function describeRules(): void {
  for (const field of getMetadataStorage().fields) {
    const rule = byClass.get(field.target as Constructor)?.get(field.name);
    if (!rule) continue;
    const text = ruleText(rule);
    const description = field.description ?? '';
    if (text && !description.endsWith(text)) field.description = description ? `${description} ${text}` : text;
  }
}
