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
  // Every test file loads the whole app again in the same worker, and what a file leaves is freed
  // slowly (the heap after a forced collection grows by about 40 MB a file), so an old worker runs
  // each file several times slower than a fresh one (a file's set-up: 2.2 s alone, 13 s late in a
  // worker). Past this heap after a file, the worker is replaced by a fresh one (about a second).
  // 35 files on two workers: 117 s at 1536MB, 103 s at 600MB, 93 s at 400MB, 94 s at 250-300MB.
  // Setting it also makes jest run the files in that worker, not in band.
  workerIdleMemoryLimit: '400MB',
};
