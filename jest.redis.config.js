/** The tests that need Redis (127.0.0.1:6379): `npm run test:redis`, run by `.ci/run`. */
// Apart from `npm test`, which passes on a machine with only Node (test/redis/).
const base = require('./jest.config');

module.exports = { ...base, testMatch: ['**/*.redis.ts'] };
