// Regenerates schema/schema.graphql (the subgraph SDL) and schema/client.graphql (what clients see)
// from the code (npm run schema), then the router's supergraph composed from the first
// (deploy/router/supergraph.graphql, npm run supergraph). CI fails when any is stale.
import fs from 'node:fs';
import path from 'node:path';
import { createSchema } from '../src/graphql/schema';
import { printClientSchema, printSdl } from '../src/graphql/print';
import { writeSupergraph } from './supergraph';
import { MODULES } from '../src/modules';

createSchema(MODULES)
  .then((schema) => {
    for (const [name, text] of [
      ['schema.graphql', printSdl(schema)],
      ['client.graphql', printClientSchema(schema)],
    ]) {
      const file = path.resolve(__dirname, '../../schema', name);
      fs.writeFileSync(file, text);
      console.log(`Wrote ${path.relative(process.cwd(), file)}`);
    }
    return writeSupergraph();
  })
  .catch((err) => {
    console.error(err);
    process.exit(1);
  });
