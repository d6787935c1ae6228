// The bounds sweep (issue 39, item 2), generated from the rules: every text bound of the service is
// a maxLength rule on a GraphQL input type or args class (src/graphql/rules.ts). For each one, a
// call that carries the field (the REST route of the route table whose document binds it, from the
// authorization sweep's valid call, and the route's document with the same variables on /graphql)
// sends the field at its bound and one past it in U+1F600 (one character, two UTF-16 units): the
// bound is taken, one more is 400 with the rule's identifier naming the field, and a refusal stores
// nothing. A bounded field added to an input adds its case here; one that no call reaches fails,
// naming it. The tables below say only what the rules cannot: the values the services want beside
// or instead of the filler, the bounds no value can reach (a time zone id of 64 characters), and
// the bounds still checked outside the rules.
import { OperationTypeNode, isInputObjectType, isObjectType, parse, typeFromAST, type GraphQLInputType, type GraphQLSchema } from 'graphql';
import {
  CARA,
  connect,
  createUser,
  DEMO,
  fingerprint,
  NORTHWIND,
  OLIVIA,
  suffix,
  supportGroupForm,
  uniquePdf,
  useTestApp,
  type Reply,
} from '../kit';
import { SWEEP, sendCall, type Call, type Sweep } from '../kit/route-sweep';
import { pathTo, requiredText, setIn, textsOfLength, wide } from '../kit/bounds';
import { allRules, type DeclaredRule } from '../../src/graphql/rules';
import { ROUTES } from '../kit/routes';
import { bindRoute } from '../../src/rest/route-binding';
import type { CompiledRoute } from '../../src/rest/executor';
import { variablesStage } from '../../src/rest/variables';

const t = useTestApp();

const RULES = allRules();
/** Every bounded field the rules declare, in declaration order. */
const BOUNDED = RULES.filter((r) => r.rule.maxLength !== undefined);
const keyOf = (r: DeclaredRule) => `${r.typeName}.${r.fieldName}`;
/** The written bound of a rule's field (a field missing from EXPECTED_BOUNDS has none: its case fails). */
const boundOf = (r: DeclaredRule): number => {
  const n = EXPECTED_BOUNDS[keyOf(r)];
  if (n === undefined) throw new Error(`${keyOf(r)} has a rule of ${r.rule.maxLength} characters and no written bound`);
  return n;
};

/**
 * The bounds, written down: the specification's char(n) for the address fields, the documented
 * bounds (docs/api) for the rest. The sweep sends each field at this bound and one past it, so a
 * rule that drifts from it fails twice: here, and in its case below.
 */
const EXPECTED_BOUNDS: Record<string, number> = {
  // The specification's address table (char(n)).
  'AddressInput.uuid': 50,
  'AddressInput.typeCode': 1,
  'AddressInput.name': 255,
  'AddressInput.street': 255,
  'AddressInput.city': 100,
  'AddressInput.suburb': 100,
  'AddressInput.stateCode': 6,
  'AddressInput.postcode': 20,
  'AddressInput.postCode': 20,
  'AddressInput.countryCode': 2,
  'AddressInput.email': 255,
  'AddressInput.phone': 30,
  'AddressInput.fax': 30,
  'AddressInput.mobile': 30,
  'AddressInput.department': 50,
  'AddressInput.division': 50,
  'AddressInput.jobTitle': 50,
  // Documented by the service (docs/api).
  'UpdateUserProfileInput.uFirstName': 100,
  'UpdateUserProfileInput.uLastName': 100,
  'UpdateUserProfileInput.uEmail': 255,
  'UpdateUserProfileInput.uPrimaryMobile': 30,
  'UpdateUserProfileInput.uInterests': 2000,
  'UpdateUserProfileInput.uDietaryRequirements': 2000,
  'UpdateUserProfileInput.uTreatmentNotes': 2000,
  'UpdateUserProfileInput.uPhoto': 1024,
  'UpdateUserProfileInput.uOtherTitle': 100,
  'UpdateUserProfileInput.uOtherProfession': 100,
  'UpdateUserProfileInput.uOtherSpecialty': 100,
  'UpdateUserProfileInput.uSocialNetworkAId': 255,
  'UpdateUserProfileInput.uSocialNetworkBId': 255,
  'UpdateUserProfileInput.uSocialNetworkCId': 255,
  'UpdateUserProfileInput.uSocialNetworkCUrl': 1024,
  'UpdateUserProfileInput.uTimezoneId': 64,
  'EmailParamInput.key': 100,
  'EmailParamInput.value': 2000,
  'SendNotificationInput.valueIds': 50,
  'SendNotificationInput.message': 1000,
  'SendNotificationInput.url': 1024,
  'SendNotificationInput.emailTemplate': 100,
  'SendNotificationInput.emailSubject': 256,
  'SendNotificationInput.scheduleTimezoneId': 40,
  'SendNotificationInput.scheduleJobName': 100,
  'SmartEntryUrlInput.smartEntryUrlName': 255,
  'SmartEntryUrlInput.smartEntryUrlValue': 2048,
  'SmartTagInput.smartTagName': 100,
  'SmartFolderInput.smartFolderName': 255,
  'SmartFilterInput.smartFilterName': 100,
  'SmartCategoryInput.smartCategoryName': 100,
  'SmartFileInfoInput.originalFilename': 255,
  'SmartFileInfoInput.tempFilename': 64,
  'SmartFileInfoInput.tempImageName': 64,
  'CreateSmartEntryInput.smartEntryName': 255,
  'CreateSmartEntryInput.smartEntryDesc': 2000,
  'CreateSmartEntryInput.smartEntryUrlLink': 2048,
  'CreateSmartEntryInput.smartEntryAuthors': 500,
  'MembershipDetailsInput.membershipId': 100,
  'MembershipDetailsInput.status': 50,
  'MembershipDetailsInput.customField1': 100,
  'MembershipDetailsInput.customField2': 100,
  'MembershipDetailsInput.customField3': 100,
  'MembershipDetailsInput.customField4': 100,
  'MembershipDetailsInput.customField5': 100,
  'CreateSupportGroupInput.supportGroupPrefix': 50,
  'CreateSupportGroupInput.supportGroupName': 150,
  'CreateSupportGroupInput.countryCode': 2,
  'CreateSupportGroupInput.stateCode': 6,
  'PushSubscriptionInput.endpoint': 1024,
  'UnsubscribePushArgs.endpoint': 1024,
};

// --- What the rules cannot say ---

/** Bases that differ from the authorization sweep's (every accepted call writes, and some writes are unique), for the caller. */
const BASE: Record<string, (uId: number) => Call | Promise<Call>> = {
  // A support group's prefix and name together are unique in the company: each is drawn anew.
  createSupportGroup: () => ({ multipart: supportGroupForm({ supportGroupName: `Sweep ${suffix()}` }) as Record<string, string> }),
  // An entry's name is unique in its library.
  createSmartEntry: () => ({ body: { ...((SWEEP.createSmartEntry as Sweep).call as Call).body!, smartEntryName: `Sweep ${suffix()}` } }),
  // The demo company key's membership identifier has the format NWH-000123.
  createMembershipDetails: () => ({ body: { userId: OLIVIA, membershipId: 'NWH-000123' } }),
  updateUserProfile: (uId) => ({ body: { uId, uFirstName: 'Sweep' } }),
  getLoginScheme: () => ({ query: 'email=sweep%40example.org' }),
};

/**
 * Who calls, where not Olivia (or Cara with Northwind's key): Cara holds Northwind's push-notification
 * role; a new user for each call where an accepted value would stay with the caller (a changed
 * e-mail address, one address of each type).
 */
const WHO: Record<string, number | 'new'> = { sendNotification: CARA, createUserAddress: 'new', updateUserProfile: 'new' };

const httpsUrl = (host: string) => (n: number) => `https://${host}/${'a'.repeat(n - host.length - 9)}`;
const body = (call: Call, extra: Record<string, unknown>): Call => ({ ...call, body: { ...(call.body as object), ...extra } });
const withEmail = (call: Call) => body(call, { emailTemplate: 'sweep', emailSubject: 'Sweep' });

interface FieldCase {
  /** The value at the bound, where the service wants more of the text than its rule says. */
  atBound?: (n: number) => string | Promise<string>;
  /** Why no value of the bound's length can be taken: only the refusal is sent. */
  notAtBound?: string;
  /** What the base call needs beside this field for it to be taken. */
  prepare?: (call: Call) => Call | Promise<Call>;
}

/** By field (Type.field). */
const FIELDS: Record<string, FieldCase> = {
  'UpdateUserProfileInput.uTimezoneId': { notAtBound: 'an IANA time zone id (the longest has 32 characters)' },
  'SendNotificationInput.scheduleTimezoneId': { notAtBound: 'an IANA time zone id (the longest has 32 characters)' },
  'AddressInput.countryCode': { atBound: () => 'AU' },
  'CreateSupportGroupInput.countryCode': { atBound: () => 'AU' },
  'CreateSupportGroupInput.stateCode': { notAtBound: 'a subdivision code of the states list (at most 3 characters)' },
  'MembershipDetailsInput.membershipId': { notAtBound: "the format of the key's membership identifier (NWH-000123)" },
  'SmartFileInfoInput.tempFilename': { notAtBound: 'the name uploadSmartFile gave (the service makes it)' },
  'SmartFileInfoInput.tempImageName': { notAtBound: 'the name uploadTileImage gave (the service makes it)' },
  // Unique (in the library; among users): 8 characters differ from call to call.
  'CreateSmartEntryInput.smartEntryName': { atBound: (n) => `${wide(n - 8)}${suffix()}` },
  'UpdateUserProfileInput.uEmail': { atBound: (n) => `${wide(n - 20)}${suffix()}@example.org` },
  // URLs (a deeplink takes any scheme but script and data ones; a push service is https).
  'SendNotificationInput.url': { atBound: (n) => `x:${wide(n - 2)}` },
  'SmartEntryUrlInput.smartEntryUrlValue': { atBound: httpsUrl('example.org') },
  'CreateSmartEntryInput.smartEntryUrlLink': { atBound: httpsUrl('example.org') },
  'PushSubscriptionInput.endpoint': { atBound: httpsUrl('push.example.org') },
  'UnsubscribePushArgs.endpoint': { atBound: httpsUrl('push.example.org') },
  // Team ids (GT, GA) are numbers; a job notification's value ids are free text.
  'SendNotificationInput.valueIds': { prepare: (call) => body(call, { broadcastType: 'JN', scheduleJobName: 'sweep' }) },
  'SendNotificationInput.emailTemplate': { prepare: withEmail },
  'SendNotificationInput.emailSubject': { prepare: withEmail },
  'EmailParamInput.key': { prepare: withEmail },
  'EmailParamInput.value': { prepare: withEmail },
  // An original file name goes with an uploaded file: a PDF entry.
  'SmartFileInfoInput.originalFilename': {
    prepare: async (call) => {
      const upload = await t.as(OLIVIA).multipart('/rest/smartlib/upload/file', { file: { content: uniquePdf(), filename: 'sweep.pdf' } });
      const { smartEntryUrlLink: _link, ...rest } = call.body as Record<string, unknown>;
      return { ...call, body: { ...rest, smartEntryType: 'PDF', smartFileInfo: { tempFilename: upload.body.tempFilename } } };
    },
  },
};

/** List items a base lacks, where their required text alone is not enough (a URL; an asset's type). */
const ITEMS: Record<string, Record<string, unknown>> = {
  SmartEntryUrlInput: { smartEntryUrlValue: 'https://example.org/sweep' },
  SupportGroupAssetInput: { name: 'Sweep', type: 'html' },
};

/** Bounded fields only a GraphQL operation takes (no REST route binds them): a valid call, by schema coordinate. */
const GRAPHQL_ONLY: Record<string, { document: string; variables: Record<string, unknown>; who?: number }> = {};

const part =
  (name: string, extra: Record<string, string> = {}) =>
  (call: Call, value: string) => ({
    ...call,
    multipart: { ...call.multipart, ...extra, [name]: value },
  });
const consent = (key: string) => (call: Call, value: string) =>
  part('directoryConsents')(call, JSON.stringify([{ consentType: 'DS', name: 'Listing', desc: 'List me.', required: true, [key]: value }]));

interface HandBound {
  op: string;
  max: number;
  /** The field as the errors name it. */
  field: string;
  set: (call: Call, value: string) => Call;
  atBound?: (n: number) => string | Promise<string>;
}

/**
 * Bounds checked outside the rules, by a service (an argument's bound, the items of a comma list,
 * the JSON of a form part, a form's numbered parts): each should become a rule (issue 39, item 1),
 * and its entry then leaves this table (the last test says so). Sent as the rules' cases are.
 */
const HAND: Record<string, HandBound> = {
  'getRecommendedEntitiesForUser searchTerms': {
    op: 'getRecommendedEntitiesForUser',
    max: 255,
    field: 'searchTerms',
    set: (call, value) => body(call, { searchTerms: value }),
  },
  'getLoginScheme email': {
    op: 'getLoginScheme',
    max: 255,
    field: 'email',
    set: (call, value) => ({ ...call, query: new URLSearchParams({ email: value }).toString() }),
    atBound: (n) => `${wide(n - 12)}@example.org`,
  },
  'updateSmartEntryAIIngestionFailure aiIngestionError': {
    op: 'updateSmartEntryAIIngestionFailure',
    max: 100_000,
    field: 'aiIngestionError',
    set: (call, value) => body(call, { aiIngestionError: value }),
  },
  'createSupportGroup teamAdminUserEmails (each address)': {
    op: 'createSupportGroup',
    max: 255,
    field: 'teamAdminUserEmails',
    set: part('teamAdminUserEmails'),
    // An admin is a user with an accepted connection to the company.
    atBound: async (n) => {
      const email = `${wide(n - 20)}${suffix()}@example.org`;
      await connect(t.orm, (await createUser(t.orm, { email })).uId, NORTHWIND, 'accepted');
      return email;
    },
  },
  'createSupportGroup directoryConsents[].name': { op: 'createSupportGroup', max: 255, field: 'directoryConsents', set: consent('name') },
  'createSupportGroup directoryConsents[].desc': { op: 'createSupportGroup', max: 4000, field: 'directoryConsents', set: consent('desc') },
  'createSupportGroup directoryConsents[].optionalDesc': {
    op: 'createSupportGroup',
    max: 4000,
    field: 'directoryConsents',
    set: consent('optionalDesc'),
  },
  'createSupportGroup assetName1': {
    op: 'createSupportGroup',
    max: 255,
    field: 'assetName1',
    set: part('assetName1', { assetType1: 'html' }),
  },
  'createSupportGroup assetDescription1': {
    op: 'createSupportGroup',
    max: 2000,
    field: 'assetDescription1',
    set: part('assetDescription1', { assetName1: 'Sweep', assetType1: 'html' }),
  },
  // Unique among the company's assets: 8 characters differ from call to call.
  'createSupportGroup assetInternalId1': {
    op: 'createSupportGroup',
    max: 100,
    field: 'assetInternalId1',
    set: part('assetInternalId1', { assetName1: 'Sweep', assetType1: 'html' }),
    atBound: (n) => `${wide(n - 8)}${suffix()}`,
  },
};

// --- The schema's side ---

let compiled: CompiledRoute[];
beforeAll(() => {
  compiled = ROUTES.map((def) => ({ def, binding: bindRoute(t.app.schema, def) }) as CompiledRoute);
});
const routeOf = (op: string) => compiled.find((c) => c.def.operation === op)!;

const rootName = (c: CompiledRoute) =>
  `${c.binding.operation.operation === OperationTypeNode.MUTATION ? 'Mutation' : 'Query'}.${c.binding.rootField.name}`;

/** Whether the schema holds the field: an input type's field, or an argument of a field that takes the args class. */
function inSchema(schema: GraphQLSchema, r: DeclaredRule): boolean {
  if (r.kind === 'input') {
    const type = schema.getType(r.typeName);
    return isInputObjectType(type) && r.fieldName in type.getFields();
  }
  return (r.usedBy ?? []).some((coordinate) => {
    const [typeName, fieldName] = coordinate.split('.');
    const type = schema.getType(typeName);
    return isObjectType(type) && !!type.getFields()[fieldName]?.args.some((a) => a.name === r.fieldName);
  });
}

function itemOf(typeName: string): Record<string, unknown> {
  const required = (field: string) => RULES.some((r) => r.typeName === typeName && r.fieldName === field && r.rule.required);
  return { ...requiredText(t.app.schema.getType(typeName) as GraphQLInputType, required), ...ITEMS[typeName] };
}

/** A rule's field on a route: how a call carries it, and the name REST errors give it. */
interface Carrier {
  route: CompiledRoute;
  set: (call: Call, value: string) => Call;
  restField?: string;
}

/** The first route of the table whose document binds the field (on a form: a text part, or a numbered part of its list). */
function restCarrier(r: DeclaredRule): Carrier | undefined {
  for (const route of compiled) {
    for (const variable of route.binding.variables) {
      const path =
        r.kind === 'input'
          ? pathTo(variable.type, r)
          : r.usedBy?.includes(rootName(route)) && variable.argument?.name === r.fieldName
            ? []
            : undefined;
      if (!path) continue;
      const { form } = route.def;
      if (route.def.multipart) {
        if (variable.source !== 'wholeBody') continue;
        if (path.length === 1) return { route, set: part(path[0]) };
        const prefix = form && path.length === 3 && path[0] === form.list && Object.keys(form.parts).find((p) => form.parts[p] === path[2]);
        if (!prefix) continue;
        // Item 1 of the list: its other parts from ITEMS, this one the value.
        const item = Object.entries(itemOf(r.typeName)).flatMap(([f, v]) => {
          const p = Object.keys(form.parts).find((k) => form.parts[k] === f);
          return p ? [[`${p}1`, String(v)]] : [];
        });
        return { route, set: part(`${prefix}1`, Object.fromEntries(item)), restField: `${prefix}1` };
      }
      const set = (call: Call, value: string): Call => {
        const next = structuredClone(call);
        switch (variable.source) {
          case 'path':
            return { ...next, params: { ...next.params, [variable.name]: value } };
          case 'query': {
            const query = new URLSearchParams(next.query ?? '');
            query.set(variable.name, value);
            return { ...next, query: query.toString() };
          }
          case 'body': {
            const b = next.body as Record<string, unknown>;
            return body(next, { [variable.name]: setIn(b?.[variable.name], variable.type, path, value, itemOf) });
          }
          case 'wholeBody':
            return { ...next, body: setIn(next.body ?? {}, variable.type, path, value, itemOf) };
        }
      };
      return { route, set };
    }
  }
  return undefined;
}

/** The root fields whose arguments reach the field. */
function rootsReaching(schema: GraphQLSchema, r: DeclaredRule): string[] {
  if (r.kind === 'args') return r.usedBy ?? [];
  const out: string[] = [];
  for (const root of [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]) {
    for (const field of Object.values(root?.getFields() ?? {}))
      if (field.args.some((a) => pathTo(a.type, r))) out.push(`${root!.name}.${field.name}`);
  }
  return out;
}

// --- Calls ---

/** A caller of the route: its user (a demo user, or a new one) and the headers its credential takes. */
async function callerOf(op: string, credential: string): Promise<{ uId: number; headers: Record<string, string> }> {
  const key = { 'x-service-company-api-key': DEMO.companyApiKey };
  const who = WHO[op] ?? (credential === 'userAndCompanyKey' ? CARA : OLIVIA);
  const caller = who === 'new' ? await t.newUser() : t.as(who);
  const uId = caller.uId!;
  const auth = async () => ({ 'x-service-authtoken': await caller.token() });
  switch (credential) {
    case 'none':
      return { uId, headers: {} };
    case 'user':
      return { uId, headers: await auth() };
    case 'userAndCompanyKey':
      return { uId, headers: { ...(await auth()), ...key } };
    case 'companyKey':
      return { uId, headers: key };
    case 'system':
      return { uId, headers: { 'x-api-key': DEMO.ingestionToken } };
    default:
      throw new Error(`${op}: no caller for the credential ${credential}`);
  }
}

/** A valid call of the route by this user, with what the field needs beside it. */
async function baseCall(route: CompiledRoute, uId: number, key: string): Promise<Call> {
  const op = route.def.operation;
  const sweep = SWEEP[op];
  const call = structuredClone(
    BASE[op]
      ? await BASE[op](uId)
      : sweep === 'public' || !sweep
        ? {}
        : typeof sweep.call === 'function'
          ? await sweep.call(t)
          : sweep.call,
  );
  return FIELDS[key]?.prepare ? FIELDS[key].prepare(call) : call;
}

/** The variables the REST facade makes of the call: what the GraphQL twin sends. */
function twinVariables(route: CompiledRoute, call: Call): Record<string, unknown> {
  const params = Object.fromEntries(Object.entries(call.params ?? {}).map(([k, v]) => [k, String(v)]));
  const query: Record<string, string> = Object.fromEntries(new URLSearchParams(call.query ?? ''));
  return variablesStage(route)({ params, query, querystring: call.query, body: call.multipart ?? call.body });
}

// --- Answers, summarised for one comparison per field ---

const taken = (res: Reply) => (res.status >= 200 && res.status < 300 ? 'taken' : { status: res.status, body: res.body });
const takenGql = (res: Reply) => (res.body?.errors ? { status: res.status, errors: res.body.errors } : 'taken');
const refusedRest = (res: Reply) => ({
  status: res.status,
  errorCode: res.body?.errorCode,
  field: res.body?.field,
  message: res.body?.message,
});
const refusedGql = (res: Reply) => {
  const error = res.body?.errors?.[0];
  return error
    ? { errorCode: error.extensions?.errorCode, field: error.extensions?.field, message: error.message }
    : { status: res.status, data: res.body?.data };
};

/** The tables whose rows differ. */
const changed = (before: Record<string, string>, after: Record<string, string>) =>
  Object.keys({ ...before, ...after }).filter((table) => before[table] !== after[table]);

/** The identifier of a length refusal on a route: the rule's, unless the route lists only the invalid-parameter one. */
const lengthCode = (route?: CompiledRoute) =>
  !route || route.def.errors.includes('WSFieldLengthException')
    ? 'WSFieldLengthException'
    : (route.def.invalid ?? 'WSInvalidParameterException');

/** The value at the bound (made anew for each call): the table's, else the widest text of that length the rule's pattern admits. */
function atBound(r: DeclaredRule): (() => string | Promise<string>) | { reason: string } {
  const n = boundOf(r);
  const table = FIELDS[keyOf(r)];
  if (table?.notAtBound) return { reason: table.notAtBound };
  if (table?.atBound) return () => table.atBound!(n);
  const fits = textsOfLength(n).find((s) => !r.rule.pattern || r.rule.pattern.test(s));
  return fits ? () => fits : { reason: `its pattern ${r.rule.pattern!.source} admits no text of ${n} characters` };
}

interface Case {
  /**
   * A call of the operation (REST, with its GraphQL twin; or GraphQL alone) with the field set to the
   * value, ready to send: what it writes to arrange itself (a new user) is written before it is sent.
   */
  prepare: (value: string, over: 'rest' | 'graphql') => Promise<() => Promise<Reply>>;
  max: number;
  code: string;
  field: { rest: string; graphql: string };
  at: (() => string | Promise<string>) | { reason: string };
  overRest: boolean;
}

/** The field at its bound (taken) and one past it (refused, naming it, nothing stored), over REST and GraphQL. */
async function sweep(c: Case): Promise<void> {
  const actual: Record<string, unknown> = {};
  const expected: Record<string, unknown> = {};
  const over = c.overRest ? (['rest', 'graphql'] as const) : (['graphql'] as const);
  for (const surface of over) {
    if (typeof c.at === 'function') {
      const res = await (await c.prepare(await c.at(), surface))();
      actual[`${surface} at the bound`] = surface === 'rest' ? taken(res) : takenGql(res);
      expected[`${surface} at the bound`] = 'taken';
    }
    const send = await c.prepare(wide(c.max + 1), surface);
    const before = await fingerprint(t.orm);
    const res = await send();
    const stored = changed(before, await fingerprint(t.orm));
    actual[`${surface} past it`] = { ...(surface === 'rest' ? refusedRest(res) : refusedGql(res)), changed: stored };
    expected[`${surface} past it`] = {
      ...(surface === 'rest' ? { status: 400 } : {}),
      errorCode: c.code,
      field: c.field[surface],
      message: expect.any(String),
      changed: [],
    };
  }
  expect(actual).toEqual(expected);
}

/** A route's call, or its twin on /graphql; the caller and the base are made anew for each call. */
function viaRoute(route: CompiledRoute, set: (call: Call, value: string) => Call, key: string) {
  return async (value: string, over: 'rest' | 'graphql') => {
    const { uId, headers } = await callerOf(route.def.operation, route.def.credential);
    const call = set(await baseCall(route, uId, key), value);
    if (over === 'rest') return () => sendCall(t, route.def, call, headers);
    const variables = twinVariables(route, call);
    return () => t.gql(route.def.document, variables, headers);
  };
}

/** A GRAPHQL_ONLY call with the field set. */
function viaGraphql(schema: GraphQLSchema, r: DeclaredRule, base: (typeof GRAPHQL_ONLY)[string]) {
  const definitions = parse(base.document).definitions.flatMap((d) => ('variableDefinitions' in d ? (d.variableDefinitions ?? []) : []));
  return async (value: string) => {
    const variables = structuredClone(base.variables);
    for (const v of definitions) {
      const type = typeFromAST(schema, v.type) as GraphQLInputType;
      const path = r.kind === 'args' ? (v.variable.name.value === r.fieldName ? [] : undefined) : pathTo(type, r);
      if (path) variables[v.variable.name.value] = setIn(variables[v.variable.name.value], type, path, value, itemOf);
    }
    const headers = { 'x-service-authtoken': await t.as(base.who ?? OLIVIA).token() };
    return () => t.gql(base.document, variables, headers);
  };
}

// --- The sweep ---

interface Outcome {
  inSchema: boolean;
  rest?: string;
  graphql?: string;
  skipped?: string;
  /** Only the refusal was sent: why no value at the bound is taken. */
  refusalOnly?: string;
  uncallable?: string;
}
const outcomes = new Map<string, Outcome>();

it.each(BOUNDED.map((r) => [`${keyOf(r)}, at most ${EXPECTED_BOUNDS[keyOf(r)]}`, r] as const))('%s', async (_name, r) => {
  const key = keyOf(r);
  const schema = t.app.schema;
  if (!inSchema(schema, r)) return void outcomes.set(key, { inSchema: false });
  if (r.rule.oneOf) return void outcomes.set(key, { inSchema: true, skipped: `one of ${r.rule.oneOf.join(', ')}: a code, not a length` });
  const at = atBound(r);
  const refusalOnly = typeof at === 'function' ? undefined : at.reason;
  const field = r.rule.field ?? r.fieldName;
  const carrier = restCarrier(r);
  if (carrier) {
    const { route } = carrier;
    outcomes.set(key, { inSchema: true, rest: `${route.def.method} ${route.def.path}`, graphql: route.def.operation, refusalOnly });
    const prepare = viaRoute(route, carrier.set, key);
    return sweep({
      prepare,
      max: boundOf(r),
      code: lengthCode(route),
      field: { rest: carrier.restField ?? field, graphql: field },
      at,
      overRest: true,
    });
  }
  const roots = rootsReaching(schema, r);
  const root = roots.find((c) => GRAPHQL_ONLY[c]);
  if (!root) {
    const uncallable = roots.length
      ? `no REST route binds it, and GRAPHQL_ONLY has no call for ${roots.join(' or ')}`
      : "no operation's arguments reach it";
    outcomes.set(key, { inSchema: true, uncallable });
    throw new Error(`${key}: ${uncallable}`);
  }
  outcomes.set(key, { inSchema: true, graphql: root, refusalOnly });
  const prepare = viaGraphql(schema, r, GRAPHQL_ONLY[root]);
  return sweep({ prepare, max: boundOf(r), code: lengthCode(), field: { rest: field, graphql: field }, at, overRest: false });
});

it('every bounded field has the written bound, and every written bound a rule', () => {
  const rules = Object.fromEntries(BOUNDED.map((r) => [keyOf(r), r.rule.maxLength]));
  expect(rules).toEqual(EXPECTED_BOUNDS);
});

describe('bounds checked outside the rules', () => {
  it.each(Object.entries(HAND).map(([name, h]) => [`${name}, at most ${h.max}`, h] as const))('%s', async (_name, h) => {
    const route = routeOf(h.op);
    const at = h.atBound ? () => h.atBound!(h.max) : () => wide(h.max);
    const prepare = viaRoute(route, h.set, '');
    await sweep({ prepare, max: h.max, code: lengthCode(route), field: { rest: h.field, graphql: h.field }, at, overRest: true });
  });
});

it('covers every bounded field of the schema, or says why not', () => {
  const all = [...outcomes].filter(([, o]) => o.inSchema);
  const covered = all.filter(([, o]) => o.graphql);
  const skipped = all.filter(([, o]) => o.skipped);
  const via = (o: Outcome) => o.rest ?? `GraphQL ${o.graphql}`;
  const lines = [
    `Bounded text fields in the schema: ${all.length} (rules with maxLength: ${BOUNDED.length})`,
    `Covered over REST: ${covered.filter(([, o]) => o.rest).length}; over GraphQL: ${covered.length}`,
    ...[...new Set(covered.map(([, o]) => via(o)))].map((by) => `  ${by}: ${covered.filter(([, o]) => via(o) === by).length}`),
    ...covered.filter(([, o]) => o.refusalOnly).map(([k, o]) => `  refusal only: ${k} (${o.refusalOnly})`),
    `Skipped: ${skipped.length}`,
    ...skipped.map(([k, o]) => `  ${k}: ${o.skipped}`),
    ...all.filter(([, o]) => o.uncallable).map(([k, o]) => `  NOT COVERED: ${k}: ${o.uncallable}`),
    ...[...outcomes].filter(([, o]) => !o.inSchema).map(([k]) => `  declared, not in the schema: ${k}`),
    `Bounds checked outside the rules, swept too: ${Object.keys(HAND).length}`,
  ];
  console.log(lines.join('\n'));
  expect(all.filter(([, o]) => !o.graphql && !o.skipped).map(([k, o]) => `${k}: ${o.uncallable ?? 'its case did not finish'}`)).toEqual([]);
  expect(covered.length + skipped.length).toBe(all.length);
  // A hand-checked bound that became a rule leaves HAND.
  const ruled = new Set(covered.map(([k, o]) => `${o.graphql} ${k.split('.')[1]}`));
  expect(Object.values(HAND).filter((h) => ruled.has(`${h.op} ${h.field}`))).toEqual([]);
});
