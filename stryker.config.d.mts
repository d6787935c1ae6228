// The types of stryker.config.mjs, for scripts/mutation.mts.
export declare const GROUPS: Readonly<Record<string, { mutate: readonly string[]; tests: readonly string[] }>>;
declare const config: Readonly<Record<string, unknown>>;
export default config;
