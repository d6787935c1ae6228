// ESLint flat config: @eslint/js recommended + typescript-eslint recommendedTypeChecked
// (minus the no-unsafe-* family, see below) + eslint-config-prettier last (formatting is
// prettier's job). Run with --max-warnings 0: every finding is an error to fix, not a note.
//
// Type-aware linting costs one TypeScript program (~14 s of the ~22 s run on this codebase);
// once that is paid, the number of type-aware rules makes no measurable difference, so the
// whole recommendedTypeChecked set is on except where noted.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

export default defineConfig(
  { ignores: ['dist/**', 'node_modules/**', 'schema/**', 'coverage/**'] },

  {
    // Inline `eslint-disable` comments are not honoured, and each one is reported (a warning,
    // so --max-warnings 0 fails on it): an exception belongs in this file, with its reason,
    // or the code gets fixed.
    linterOptions: { noInlineConfig: true },
  },

  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,

  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // The no-unsafe-* family reports every use of a value typed `any` (about 1,500 findings
      // today, three quarters in test/): JSON bodies, JSON.parse, and untyped library
      // surfaces (koa ctx.request.body, MikroORM raw rows, oidc-provider). They only become
      // actionable once `any` is gone at the sources; no-explicit-any below stops new ones.
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',

      // `new (...args: any[]) => T` is the idiom for "any constructor" (migration and seeder
      // lists, class mixins); every other `any` should be `unknown` or a real type.
      '@typescript-eslint/no-explicit-any': ['error', { ignoreRestArgs: true }],

      // The context's open interfaces (src/context.ts) start empty and are filled by the modules'
      // `declare module` declarations, each of which extends one with the type of what it makes.
      '@typescript-eslint/no-empty-object-type': [
        'error',
        { allowInterfaces: 'with-single-extends', allowWithName: '^(Loaders|Auth|ModuleServices)$' },
      ],

      // `_name` marks a deliberately unused parameter or binding; `{ dropped, ...rest }`
      // is how a property is left out of a copy.
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],

      // Optional or heavy packages are loaded on first use with a typed
      // `require(...) as typeof import(...)` (sharp: native, only for thumbnails; PGlite: only
      // without DATABASE_URL; oidc-provider: only for the development IdP, with its in-memory adapter,
      // which the package does not export, by its file; OpenTelemetry's SDK and
      // exporter: only with an OTLP endpoint; ioredis: only with REDIS_URL; nodemailer: at the first
      // e-mail; qrcode: at the first team QR code); i18n-iso-countries' English names are required
      // alone (its main module registers 80 languages); busboy and inflation have no type declarations; sofa-api
      // (the bench's peer): its declarations bring the DOM's lib into the whole program. Every other
      // module is imported.
      '@typescript-eslint/no-require-imports': [
        'error',
        {
          allow: [
            '^sharp$',
            '^@mikro-orm/pglite$',
            '^oidc-provider(/lib/adapters/memory_adapter\\.js)?$',
            '^busboy$',
            '^inflation$',
            '^sofa-api$',
            '^@opentelemetry/(sdk-trace-node|exporter-trace-otlp-http|resources)$',
            '^ioredis$',
            '^nodemailer$',
            '^qrcode$',
            '^i18n-iso-countries/index$',
            '^i18n-iso-countries/langs/en.json$',
          ],
        },
      ],

      // Off: async methods without await here implement promise-returning interfaces
      // (Apollo plugin hooks, Seeder.run, oidc-provider adapters, koa middleware) where
      // `async` keeps a throw a rejection. A forgotten await is caught by no-floating-promises
      // and no-misused-promises, which stay on.
      '@typescript-eslint/require-await': 'off',

      // Off: every control-character class in this code is a deliberate sanitiser (file
      // names, form fields); the rule has no option to tell those from accidents.
      'no-control-regex': 'off',
    },
  },

  {
    // A packed read compiles one row builder per packing (new Function): each row is then one
    // object literal of a fixed shape, where stores by name were megamorphic (docs/performance.md,
    // "Recommended entities: one split"). Its source is made from the column names and kinds the
    // modules declare in code, JSON-quoted, never from data.
    files: ['src/modules/discovery/discovery.packed.ts'],
    rules: {
      '@typescript-eslint/no-implied-eval': 'off',
    },
  },

  {
    // Tests read untyped JSON bodies (res.body, data) and hand deliberately wrong shapes to
    // typed factories and services; `any` there is the point of the test, not a leak.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },

  {
    // Plain JavaScript config files (jest.config.js, .dependency-cruiser.cjs, this file):
    // not part of the TypeScript project, so no type-aware rules; they run in Node.
    files: ['**/*.{js,mjs,cjs}'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', __dirname: 'readonly', __filename: 'readonly' },
    },
  },
  {
    // package.json has no "type": .js and .cjs files are CommonJS, where require() is the import.
    files: ['**/*.{js,cjs}'],
    languageOptions: { sourceType: 'commonjs' },
    rules: {
      '@typescript-eslint/no-require-imports': 'off',
    },
  },

  prettier,

  // After eslint-config-prettier, which turns max-len off: Prettier cannot wrap comments.
  {
    // Lines of at most 140 characters. Prettier wraps code at 140; this holds comments to it too.
    // A string or template literal (an SQL statement, a GraphQL document, a description) is not
    // broken at an arbitrary column, and neither is a URL.
    files: ['**/*.{ts,js,mjs,cjs}'],
    rules: {
      'max-len': ['error', { code: 140, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreUrls: true, ignoreRegExpLiterals: true }],
    },
  },
);
