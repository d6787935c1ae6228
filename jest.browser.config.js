/**
 * Browser tests (npm run test:browser, not part of npm test): Debian's chromium driven by
 * playwright-core against the service on the real PostgreSQL (DATABASE_URL required). They use
 * the explorer bundle of npm run build (dist/explorer).
 */
// One file at a time: these start processes, proxies or browsers and stop servers under each other.
const base = require('./jest.config');

module.exports = { ...base, maxWorkers: 1, testMatch: ['**/*.browser.ts'], testTimeout: 120000 };
