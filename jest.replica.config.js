/**
 * The replica test: the compiled service on a PostgreSQL primary and streaming replica it makes
 * itself (Debian's server binaries, temporary folders, loopback ports): `npm run test:replica`
 * (it builds dist/ first).
 */
const base = require('./jest.config');

module.exports = { ...base, maxWorkers: 1, testMatch: ['**/*.replica.ts'], testTimeout: 60000 };
