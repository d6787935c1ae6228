const os = require('node:os');

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // Dynamic import() of a module's seeders names the file as Node loads it from dist (.js).
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  testTimeout: 60000,
  // Each test file makes its own database (on the server, or an embedded one started from a migrated
  // copy: test/kit/db.ts), so files run side by side: one worker per core, at most four (each
  // worker's heap may reach the limit below). JEST_WORKERS overrides.
  maxWorkers: Number(process.env.JEST_WORKERS) || Math.min(os.availableParallelism(), 4),
  // Every test file loads the whole app again in the same worker, and some of what a load builds
  // outlives its file (type-graphql's metadata is global), so the heap grows with the suite: past
  // this size after a file, the worker is replaced by a fresh one (a few seconds) instead of
  // running out of memory. Setting it also makes jest run the files in that worker, not in band.
  workerIdleMemoryLimit: '1536MB',
};
