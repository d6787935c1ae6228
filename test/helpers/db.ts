// Kept only for test/docs/getting-started.test.ts, which imports this path; the code is test/kit/db.ts.
export * from '../kit/db';
