/**
 * Browser tests (npm run test:browser, not part of npm test): Debian's chromium driven by
 * playwright-core against the service on the real PostgreSQL (DATABASE_URL required). They use
 * the explorer bundle of npm run build (dist/explorer).
 */
const base = require('./jest.config');

module.exports = { ...base, testMatch: ['**/*.browser.ts'], testTimeout: 120000 };
