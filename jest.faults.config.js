/** Fault tests against the real PostgreSQL server: `npm run test:faults` (DATABASE_URL required). */
// One file at a time: these start processes, proxies or browsers and stop servers under each other.
const base = require('./jest.config');

module.exports = { ...base, maxWorkers: 1, testMatch: ['**/*.faults.ts'] };
