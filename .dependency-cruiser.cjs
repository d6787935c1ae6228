// dependency-cruiser: the architecture rules of src/ (issue 17, "The house").
// Run: npx depcruise src --config .dependency-cruiser.cjs
//
// Layout the rules assume:
//   src/modules/<m>/    one folder per domain module; others see it only through its index.ts
//   src/modules/index.ts  the list of modules
//   src/core/           shared building blocks with no knowledge of modules or transports
//   everything else in src/ (app.ts, server.ts, http, graphql, rest, db, auth, observability)
//                       is the application shell, which reaches modules through their index.ts
//
// tsPreCompilationDeps: true makes dependency-cruiser read the TypeScript source, so
// `import type` edges are in the graph, marked with the dependency type 'type-only'; the
// rules below say where those are allowed.

/** Allowed to import seeders statically: seeders themselves, the demo seeding entry point, and tooling. */
const SEEDER_USERS = ['\\.seeder\\.ts$', '^src/modules/demo-seed\\.ts$', '^(test|bench|scripts)/'];
const SEEDER = '\\.seeder\\.ts$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'This dependency is part of a cycle (an `import type` counts: a type said in a circle is a design in a circle). ' +
        'Break it: move the shared part down (src/core or the lower module), or invert the dependency. ' +
        "Only a cycle through a lazy import() (a module's seeder list, loaded when the demo is seeded) is not one.",
      from: {},
      to: {
        circular: true,
        viaOnly: { dependencyTypesNot: ['dynamic-import'] },
      },
    },
    {
      name: 'foundations-know-no-module',
      severity: 'error',
      comment:
        'The foundations (src/core, db, graphql, rest, http, observability, context.ts, services.ts, background.ts) import ' +
        'no module, not even a type: src/app.ts (the composition root) hands them the module list, and what a module adds ' +
        'to the context it declares there (declare module augmentation, src/context.ts).',
      from: { path: ['^src/(core|db|graphql|rest|http|observability)/', '^src/(context|services|background)\\.ts$'] },
      to: { path: '^src/modules/' },
    },
    {
      name: 'modules-through-index',
      severity: 'error',
      comment:
        "A module may use another module only through that module's index.ts (its public surface). " +
        'Export what you need from src/modules/<other>/index.ts and import it from there.',
      from: { path: '^src/modules/([^/]+)/' },
      to: {
        path: '^src/modules/[^/]+/',
        pathNot: ['^src/modules/$1/', '^src/modules/[^/]+/index\\.ts$'],
      },
    },
    {
      name: 'app-through-index',
      severity: 'error',
      comment:
        'The application shell (src/*.ts, http, graphql, rest, db, auth, core, observability) reaches a module only ' +
        'through src/modules/<m>/index.ts or src/modules/index.ts.',
      from: { path: '^src/', pathNot: '^src/modules/' },
      to: {
        path: '^src/modules/',
        pathNot: ['^src/modules/[^/]+\\.ts$', '^src/modules/[^/]+/index\\.ts$'],
      },
    },
    {
      name: 'no-seeder-in-production',
      severity: 'error',
      comment:
        'Seeders (demo data) must not be loaded by production code. Only other seeders, src/db/seed.ts and ' +
        'test/bench/scripts import them; a module lists its seeders lazily with import() from its index.ts. ' +
        '(`import type` is harmless: it is erased.)',
      from: { pathNot: SEEDER_USERS },
      to: {
        path: SEEDER,
        dependencyTypesNot: ['type-only', 'dynamic-import'],
      },
    },
    {
      name: 'no-seeder-in-production',
      severity: 'error',
      comment:
        "A seeder may be loaded with a dynamic import() only from a module's index.ts (the lazy seeder list of the " +
        "module definition); modules-through-index keeps that to the module's own seeders.",
      from: { pathNot: [...SEEDER_USERS, '^src/modules/[^/]+/index\\.ts$'] },
      to: {
        path: SEEDER,
        dependencyTypes: ['dynamic-import'],
      },
    },
    {
      name: 'core-is-leaf',
      severity: 'error',
      comment:
        'src/core is the bottom layer: it must not know about modules, transports (http, rest), the GraphQL schema ' +
        'or the app assembly. Pass what core needs in as parameters instead. Types may be named (module.ts ' +
        'describes a module definition, whose routes are RouteDef rows): a type-only import runs nothing.',
      from: { path: '^src/core/' },
      to: {
        path: ['^src/modules/', '^src/http/', '^src/rest/', '^src/graphql/schema\\.ts$', '^src/app\\.ts$'],
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'not-to-test',
      severity: 'error',
      comment: 'Production code must not depend on test or benchmark code.',
      from: { path: '^src/' },
      to: { path: '^(test|bench)/' },
    },
    {
      name: 'no-orphans',
      severity: 'error',
      comment:
        'This module neither imports nor is imported by anything: it is dead. Use it or delete it. ' +
        '(Declaration files and the entry point are exempt; migrations are listed in src/db/migrations/index.ts, ' +
        'so they are not orphans and need no exemption.)',
      from: {
        orphan: true,
        path: '^src/',
        pathNot: ['\\.d\\.(c|m)?ts$', '^src/server\\.ts$'],
      },
      to: {},
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'This import does not resolve to a file on disk: a missing package, a typo, or a moved file.',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['^dist/', '^coverage/'] },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      // Packages with an "exports" map (subpaths such as @mikro-orm/decorators/legacy).
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['main', 'types', 'typings'],
    },
    skipAnalysisNotInRules: true,
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
