/** Behind real nginx (Debian's package, installed by .ci/run): `npm run test:proxy` (DATABASE_URL required). */
// One file at a time: these start processes, proxies or browsers and stop servers under each other.
const base = require('./jest.config');

module.exports = { ...base, maxWorkers: 1, testMatch: ['**/*.proxy.ts'] };
