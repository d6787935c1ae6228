// The committed schema, the route table and the OpenAPI document agree.
import fs from 'node:fs';
import path from 'node:path';
import { parse, validate } from 'graphql';
import { createSchema } from '../../src/graphql/schema';
import { printSdl } from '../../src/graphql/print';
import { ROUTES } from '../kit/routes';
import { buildOpenApi, openApiPath } from '../../src/rest/openapi';
import { compileRoutes } from '../../src/rest/executor';
import { ERROR_REGISTRY } from '../../src/core/errors';
import { sandboxDocument } from '../../src/graphql/sandbox';
import { MODULES, RATE_LIMITED_OPERATIONS } from '../../src/modules';

describe('contract', () => {
  it('schema/schema.graphql is the printed current schema (run npm run schema when this fails)', async () => {
    const committed = fs.readFileSync(path.join(__dirname, '../../schema/schema.graphql'), 'utf8');
    expect(committed).toBe(printSdl(await createSchema(MODULES)));
  });

  it('every route document is valid against the schema and named after its operation', async () => {
    const schema = await createSchema(MODULES);
    for (const r of ROUTES)
      expect({ route: r.operation, errors: validate(schema, parse(r.document)).map((e) => e.message) }).toEqual({
        route: r.operation,
        errors: [],
      });
    expect(() => compileRoutes(schema, ROUTES)).not.toThrow();
  });

  it('the OpenAPI document lists exactly the route table, with the error body and credentials', async () => {
    const schema = await createSchema(MODULES);
    const doc: any = buildOpenApi(schema, compileRoutes(schema, ROUTES), {
      serverUrl: 'http://localhost:4000',
      rateLimited: RATE_LIMITED_OPERATIONS,
    });
    const listed = Object.entries(doc.paths).flatMap(([p, ops]: [string, any]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`));
    // Beside the route table: the token endpoint, which is not a GraphQL route.
    expect(listed.sort()).toEqual([...ROUTES.map((r) => `${r.method} ${openApiPath(r.path)}`), 'POST /as/token.oauth2'].sort());
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.schemas.ErrorBody.properties.errorCode.enum).toEqual(Object.keys(ERROR_REGISTRY));
    expect(Object.keys(doc.components.securitySchemes)).toEqual(['authToken', 'systemToken', 'companyApiKey', 'oauth2', 'clientBasic']);
    for (const r of ROUTES) {
      const op = doc.paths[openApiPath(r.path)][r.method.toLowerCase()];
      expect(op.operationId).toBe(r.operation);
      for (const code of r.errors) {
        const status = String(ERROR_REGISTRY[code as keyof typeof ERROR_REGISTRY].status);
        expect(op.responses[status].description).toContain(code);
      }
    }
  });

  it('every type, field and argument of our schema has a description', async () => {
    const schema = await createSchema(MODULES);
    const missing: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (
        type.name.startsWith('__') ||
        type.name.startsWith('_') ||
        [
          'String',
          'Int',
          'Float',
          'Boolean',
          'ID',
          'link__Import',
          'link__Purpose',
          'federation__FieldSet',
          'federation__Scope',
          'federation__Policy',
          'federation__ContextFieldValue',
        ].includes(type.name)
      )
        continue;
      // Root operation types carry no description of their own in type-graphql.
      if (!type.description && !['Query', 'Mutation', 'Subscription'].includes(type.name)) missing.push(type.name);
      if ('getFields' in type) {
        for (const f of Object.values<any>((type as any).getFields())) {
          if (f.name.startsWith('_')) continue;
          if (!f.description) missing.push(`${type.name}.${f.name}`);
          for (const a of f.args ?? []) if (!a.description) missing.push(`${type.name}.${f.name}(${a.name})`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});

it('the Sandbox example document is valid against the schema', async () => {
  const schema = await createSchema(MODULES);
  expect(validate(schema, parse(sandboxDocument(ROUTES))).map((e) => e.message)).toEqual([]);
});
