// What a service of the production compose file is given when compose reads deploy/compose/.env.example
// (as CI validates it): the example's values, and the file's `${NAME}`, `${NAME:-default}` and
// `${NAME:?message}` replaced by them, as docker-compose 1.29 does (quotes around a value dropped).
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';

const ROOT = path.join(__dirname, '../..');
export const ENV_EXAMPLE = 'deploy/compose/.env.example';
export const PROD_COMPOSE = 'deploy/compose/docker-compose.prod.yml';

/** `KEY=value` lines of the env file example, in order, a quoted value unquoted. */
export function exampleValues(): Map<string, string> {
  return new Map(
    fs
      .readFileSync(path.join(ROOT, ENV_EXAMPLE), 'utf8')
      .split('\n')
      .filter((line) => /^\w+=/.test(line))
      .map((line) => {
        const value = line.slice(line.indexOf('=') + 1);
        return [line.slice(0, line.indexOf('=')), value.replace(/^(['"])(.*)\1$/, '$2')] as const;
      }),
  );
}

/** A service's environment with every `${...}` replaced from `values`. */
export function composeEnvironment(service: string, values: Map<string, string> = exampleValues()): Record<string, string> {
  const file = parseYaml(fs.readFileSync(path.join(ROOT, PROD_COMPOSE), 'utf8'), { merge: true }) as {
    services: Record<string, { environment?: Record<string, string> }>;
  };
  const env = file.services[service]?.environment;
  if (!env) throw new Error(`${PROD_COMPOSE} has no environment for ${service}`);
  const interpolate = (text: string) =>
    text.replace(/\$\{(\w+)(?:(:?[-?])([^}]*))?\}/g, (_all, name: string, op?: string, rest?: string) => {
      const value = values.get(name) ?? '';
      if (op?.endsWith('-')) return value || rest!;
      if (op?.endsWith('?') && !value) throw new Error(`${name}: ${rest}`);
      return value;
    });
  return Object.fromEntries(Object.entries(env).map(([name, value]) => [name, interpolate(String(value))]));
}
