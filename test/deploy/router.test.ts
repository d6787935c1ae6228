// deploy/router/: what the Apollo Router must do for this subgraph, read from its configuration
// (the router itself does not run here). The headers the service reads credentials from are asked of
// the service (readCredentials), the limits of src/graphql/limits.ts, so neither is restated here.
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { readCredentials } from '../../src/context';
import { GRAPHQL_LIMITS } from '../../src/graphql/limits';

const ROOT = path.join(__dirname, '../..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

interface RouterYaml {
  supergraph: { listen: string; introspection: boolean };
  headers: { subgraphs: Record<string, { request: { operations: { propagate?: { named: string } }[] } }> };
  subscription: { enabled: boolean; mode: { passthrough: { subgraphs: Record<string, { path: string; protocol: string }> } } };
  rhai: { scripts: string; main: string };
  cors: { allow_headers: string[]; allow_credentials: boolean };
  include_subgraph_errors: { all: boolean; subgraphs: Record<string, boolean> };
  limits: { router: { max_depth: number; max_aliases: number } };
}

const router = parseYaml(read('deploy/router/router.yaml')) as RouterYaml;
const supergraph = parseYaml(read('deploy/router/supergraph.yaml')) as { subgraphs: Record<string, unknown> };
const compose = parseYaml(read('deploy/compose/docker-compose.prod.yml'), { merge: true }) as {
  services: Record<string, { image: string; command?: string[]; volumes?: string[] }>;
};

/** The request headers the service takes credentials from, as it reads them. */
function credentialHeaders(): string[] {
  const seen = new Set<string>();
  readCredentials(
    new Proxy<Record<string, string | undefined>>(
      {},
      {
        get: (_target, name) => {
          if (typeof name === 'string') seen.add(name);
          return undefined;
        },
      },
    ),
  );
  return [...seen].sort();
}

describe('deploy/router/router.yaml', () => {
  it('names the subgraph as supergraph.yaml does', () => {
    expect(Object.keys(supergraph.subgraphs)).toContain('pronet');
    expect(Object.keys(router.headers.subgraphs)).toEqual(['pronet']);
    expect(Object.keys(router.subscription.mode.passthrough.subgraphs)).toEqual(['pronet']);
  });

  it('propagates every header the service reads credentials from, the request id and the client address', () => {
    const headers = credentialHeaders();
    expect(headers).toEqual(expect.arrayContaining(['x-service-authtoken', 'x-api-key']));
    const propagated = router.headers.subgraphs.pronet.request.operations.map((o) => o.propagate?.named).sort();
    expect(propagated).toEqual([...headers, 'x-request-id', 'x-forwarded-for', 'x-forwarded-proto'].sort());
    // Browsers may send them to the router too.
    expect(router.cors.allow_headers).toEqual(expect.arrayContaining([...headers, 'x-request-id', 'content-type']));
    expect(router.cors.allow_credentials).toBe(false);
  });

  it("passes subscriptions through to the service's /graphql over graphql-ws, with the token in connection_init", () => {
    expect(router.subscription.enabled).toBe(true);
    expect(router.subscription.mode.passthrough.subgraphs.pronet).toEqual({ path: '/graphql', protocol: 'graphql_ws' });
    // The service reads the token of a WebSocket from connection_init's payload (src/http/live-ws.ts);
    // the router puts one there only when a script sets it.
    expect(read('src/http/live-ws.ts')).toContain("connectionParams?.['x-service-authtoken']");
    const script = read(path.join('deploy/router/rhai', router.rhai.main));
    expect(script).toContain('if subgraph != "pronet"');
    expect(script).toMatch(
      /request\.context\[APOLLO_SUBSCRIPTION_WS_CUSTOM_CONNECTION_PARAMS\] = #\{\s*"x-service-authtoken": request\.headers\["x-service-authtoken"\]/,
    );
  });

  it("limits depth and aliases as the service does, keeps introspection closed and shows the service's error codes", () => {
    expect(router.limits.router).toMatchObject({ max_depth: GRAPHQL_LIMITS.maxDepth, max_aliases: GRAPHQL_LIMITS.maxAliases });
    expect(router.supergraph.introspection).toBe(false);
    expect(router.include_subgraph_errors).toEqual({ all: false, subgraphs: { pronet: true } });
  });

  it('is what the production compose file mounts, with the scripts where router.yaml looks, on the version it is written for', () => {
    const service = compose.services.router;
    expect(service.volumes).toEqual(
      expect.arrayContaining([
        '../router/router.yaml:/dist/config/router.yaml:ro',
        `../router/rhai:${router.rhai.scripts}:ro`,
        '../router/supergraph.graphql:/dist/schema/supergraph.graphql:ro',
      ]),
    );
    expect(service.command).toEqual(['--config', '/dist/config/router.yaml', '--supergraph', '/dist/schema/supergraph.graphql']);
    const version = /^ghcr\.io\/apollographql\/router:(v\d+\.\d+\.\d+)$/.exec(service.image)?.[1];
    expect(version).toBeDefined();
    expect(read('deploy/router/router.yaml')).toContain(`ghcr.io/apollographql/router:${version}`);
  });
});
