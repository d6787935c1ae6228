// Mutation testing (StrykerJS) of the files that guard access and data: `npm run test:mutation`
// runs every group below in turn; `npm run test:mutation -- <group>` runs one. Each group mutates
// its files and runs only the test files written for them (per-test coverage: a mutant runs the
// tests that reach it), on the embedded database unless DATABASE_URL is set. The TypeScript checker
// drops mutants that do not compile. Reports: reports/mutation/<group>.json and .html; the scores
// and every surviving mutant are in docs/development.md ("Mutation testing"). Too slow for CI on two
// cores (minutes per group), so it runs outside .ci/run. The guard group's Redis store is tested on
// Redis only with REDIS_URL set (scripts/mutation.mts sets it when the machine's Redis answers);
// without it, those mutants are not covered.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const base = require('./jest.config.js');

export const GROUPS = {
  guard: {
    mutate: ['src/modules/identity/brute-force.ts', 'src/modules/identity/lockout-counters.ts'],
    tests: [
      'test/identity/brute-force-guard.test.ts',
      'test/identity/lockout-counters.test.ts',
      'test/identity/brute-force.test.ts',
      'test/hostile/lockout-burst.test.ts',
      ...(process.env.REDIS_URL ? ['test/redis/lockout-counters.redis.ts'] : []),
    ],
  },
  access: {
    mutate: [
      'src/modules/identity/principal.ts',
      'src/rest/authenticate.ts',
      'src/modules/company/company.access.ts',
      'src/modules/directory/directory.access.ts',
      'src/modules/event/event.access.ts',
      'src/modules/library/library.access.ts',
      'src/modules/support-group/support-group.service.ts:290-308',
    ],
    tests: [
      'test/identity/principal.test.ts',
      'test/security/access-rules.test.ts',
      'test/identity/session.test.ts',
      'test/consent/econsents.test.ts',
      'test/federation/visibility.test.ts',
    ],
  },
  data: {
    mutate: [
      'src/modules/storage/blob-store.ts:411-429',
      'src/modules/storage/storage.queries.ts:15-16',
      'src/modules/storage/storage.queries.ts:59-70',
      'src/modules/library/upload.service.ts:160-171',
      'src/modules/notification/notification.scheduler.ts',
    ],
    tests: ['test/storage/blob-purge.test.ts', 'test/library/upload.test.ts', 'test/notification/scheduler.test.ts'],
  },
  rules: {
    mutate: ['src/graphql/rules.ts'],
    tests: ['test/unit/rules.test.ts', 'test/contract/bounds-sweep.test.ts'],
  },
};

const group = process.env.MUTATION_GROUP ?? 'guard';
const { mutate, tests } = GROUPS[group];

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: 'npm',
  testRunner: 'jest',
  testRunnerNodeArgs: ['--experimental-vm-modules'],
  jest: {
    projectType: 'custom',
    enableFindRelatedTests: false,
    config: { ...base, testMatch: tests.map((t) => `<rootDir>/${t}`), maxWorkers: 1, workerIdleMemoryLimit: undefined },
  },
  checkers: ['typescript'],
  tsconfigFile: 'tsconfig.json',
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  coverageAnalysis: 'perTest',
  ignoreStatic: true,
  mutate,
  concurrency: 2,
  timeoutMS: 30_000,
  dryRunTimeoutMinutes: 30,
  reporters: ['clear-text', 'progress-append-only', 'json', 'html'],
  jsonReporter: { fileName: `reports/mutation/${group}.json` },
  htmlReporter: { fileName: `reports/mutation/${group}.html` },
  // A re-run tests again only the mutants whose code or covering tests changed since the last run.
  incremental: true,
  incrementalFile: `reports/mutation/${group}.incremental.json`,
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
};
