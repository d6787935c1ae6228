// deploy/router/supergraph.graphql, the supergraph the production compose file's router serves, is
// committed, so the router profile starts from the repository alone (no rover, no GraphOS upload):
// it is what `npm run supergraph` composes now from deploy/router/supergraph.yaml's subgraphs (ours:
// the committed schema/schema.graphql) with @apollo/composition, offline. When the schema changes,
// `npm run schema` writes both files again.
import fs from 'node:fs';
import path from 'node:path';
import { composeSupergraph, SUPERGRAPH_FILE } from '../../scripts/supergraph';

const ROOT = path.join(__dirname, '../..');

describe('deploy/router/supergraph.graphql', () => {
  it('is committed and current (run npm run supergraph when this fails)', async () => {
    expect(path.relative(ROOT, SUPERGRAPH_FILE)).toBe('deploy/router/supergraph.graphql');
    expect(fs.existsSync(SUPERGRAPH_FILE)).toBe(true);
    expect(fs.readFileSync(SUPERGRAPH_FILE, 'utf8')).toBe(await composeSupergraph());
  });

  it('routes the pronet subgraph to the balancer, and holds the whole schema', () => {
    const sdl = fs.readFileSync(SUPERGRAPH_FILE, 'utf8');
    expect(sdl).toContain('PRONET @join__graph(name: "pronet", url: "http://balancer:8080/graphql")');
    const ours = fs.readFileSync(path.join(ROOT, 'schema/schema.graphql'), 'utf8');
    const typeNames = (text: string) => [...text.matchAll(/^type (\w+)/gm)].map((m) => m[1]);
    expect(typeNames(sdl)).toEqual(expect.arrayContaining(typeNames(ours).filter((t) => !t.startsWith('_'))));
  });
});
