/** Behind real nginx (Debian's package, installed by .ci/run): `npm run test:proxy` (DATABASE_URL required). */
const base = require('./jest.config');

module.exports = { ...base, testMatch: ['**/*.proxy.ts'] };
