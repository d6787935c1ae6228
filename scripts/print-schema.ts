// Regenerates schema/schema.graphql from the code (npm run schema), then the router's supergraph
// composed from it (deploy/router/supergraph.graphql, npm run supergraph). CI fails when either is stale.
import fs from 'node:fs';
import path from 'node:path';
import { createSchema } from '../src/graphql/schema';
import { printSdl } from '../src/graphql/print';
import { writeSupergraph } from './supergraph';

createSchema()
  .then((schema) => {
    const file = path.resolve(__dirname, '../../schema/schema.graphql');
    fs.writeFileSync(file, printSdl(schema));
    console.log(`Wrote ${path.relative(process.cwd(), file)}`);
    return writeSupergraph();
  })
  .catch((err) => {
    console.error(err);
    process.exit(1);
  });
