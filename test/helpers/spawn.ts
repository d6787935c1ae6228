// Kept only for test/docs/getting-started.test.ts, which imports this path; the code is test/kit/spawn.ts.
export * from '../kit/spawn';
