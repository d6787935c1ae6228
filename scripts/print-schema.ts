// Regenerates schema/schema.graphql from the code (npm run schema). CI fails when it is stale.
import fs from 'node:fs';
import path from 'node:path';
import { createSchema } from '../src/graphql/schema';
import { printSdl } from '../src/graphql/print';

createSchema()
  .then((schema) => {
    const file = path.resolve(__dirname, '../../schema/schema.graphql');
    fs.writeFileSync(file, printSdl(schema));
    console.log(`Wrote ${path.relative(process.cwd(), file)}`);
  })
  .catch((err) => {
    console.error(err);
    process.exit(1);
  });
