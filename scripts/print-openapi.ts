// Writes the OpenAPI document /openapi.json serves (npm run lint:openapi lints it with Redocly and Spectral).
// It is derived from the schema and the route table alone: no database, no configuration.
// Usage: node dist/scripts/print-openapi.js [file] [server URL]; without a file, to stdout.
import fs from 'node:fs';
import { createSchema } from '../src/graphql/schema';
import { routeTable } from '../src/rest/routes';
import { compileRoutes } from '../src/rest/executor';
import { buildOpenApi } from '../src/rest/openapi';
import { MODULES, RATE_LIMITED_OPERATIONS } from '../src/modules';

const [file, serverUrl = 'https://api.example.org'] = process.argv.slice(2);

createSchema(MODULES)
  .then((schema) => {
    const json = `${JSON.stringify(buildOpenApi(schema, compileRoutes(schema, routeTable(MODULES)), { serverUrl, rateLimited: RATE_LIMITED_OPERATIONS }), null, 2)}\n`;
    if (file) fs.writeFileSync(file, json);
    else process.stdout.write(json);
  })
  .catch((err) => {
    console.error(err);
    process.exit(1);
  });
