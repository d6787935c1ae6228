/** Fault tests against the real PostgreSQL server: `npm run test:faults` (DATABASE_URL required). */
const base = require('./jest.config');

module.exports = { ...base, testMatch: ['**/*.faults.ts'] };
