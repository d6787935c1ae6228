// Every REST answer a test receives is checked against its route's response schema in the
// published OpenAPI document (derived from the GraphQL documents, src/rest/openapi.ts), so the
// document cannot drift from the bodies: a body the schema does not describe fails the test.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020';

interface Operation {
  method: string;
  pattern: RegExp;
  responses: Record<string, any>;
}

let operations: Operation[] | undefined;
let errorBody: ValidateFunction | undefined;
const validators = new Map<string, ValidateFunction | null>();
const ajv = new Ajv2020({ strict: false, allErrors: true });

/** The app's own document (the one /openapi.json serves); every app of a test process derives the same one. */
function load(doc: any): Operation[] {
  if (operations) return operations;
  errorBody = ajv.compile(doc.components.schemas.ErrorBody);
  operations = [];
  for (const [path, ops] of Object.entries<any>(doc.paths)) {
    const pattern = new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    for (const [method, op] of Object.entries<any>(ops))
      operations.push({ method: method.toUpperCase(), pattern, responses: op.responses });
  }
  return operations;
}

/** Throws, naming the route and the mismatch, when a REST answer does not match its schema. */
export function checkRestResponse(
  openApi: Record<string, unknown>,
  method: string,
  url: string,
  status: number,
  contentType: string,
  body: unknown,
): void {
  const path = url.split('?')[0];
  if (!path.startsWith('/rest/')) return;
  const op = load(openApi).find((o) => o.method === method.toUpperCase() && o.pattern.test(path));
  if (!op || status === 304 || status === 204 || !contentType.includes('json')) return;
  let validate: ValidateFunction | null | undefined;
  if (status >= 400) validate = errorBody;
  else {
    const key = `${method} ${op.pattern.source} ${status}`;
    if (!validators.has(key)) {
      const schemaOf = op.responses[String(status)]?.content?.['application/json']?.schema;
      // The schema's references name the document's components (#/components/schemas/Address): compiled beside them.
      validators.set(key, schemaOf ? ajv.compile({ ...schemaOf, components: (openApi as { components: unknown }).components }) : null);
    }
    validate = validators.get(key);
    if (validate === null) throw new Error(`${method} ${path} answered ${status} with JSON, which its OpenAPI document does not describe`);
  }
  if (validate && !validate(body)) {
    throw new Error(
      `${method} ${path} answered ${status} with a body its OpenAPI schema refuses: ${ajv.errorsText(validate.errors, { separator: '; ' })}`,
    );
  }
}
