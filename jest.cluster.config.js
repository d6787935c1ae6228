/**
 * The cluster test: three instances of the compiled service behind real HAProxy, directly on
 * PostgreSQL, with Redis and through real PgBouncer (Debian's packages, installed by .ci/run):
 * `npm run test:cluster` (DATABASE_URL required; it builds dist/ first).
 */
// One file at a time: these start processes, proxies or browsers and stop servers under each other.
const base = require('./jest.config');

module.exports = { ...base, maxWorkers: 1, testMatch: ['**/*.cluster.ts'], testTimeout: 120000 };
