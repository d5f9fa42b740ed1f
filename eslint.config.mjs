// ESLint (flat config): typescript-eslint's recommended rules, React's hook rules for the console, and the
// architecture's boundaries (GUIDE.md "A resource module"; the deviations kept on purpose are in
// docs/decisions.md, "Lint and boundaries").
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/** Query building on a database or transaction object: only queries files and the named database modules. */
const queryBuilding = {
  selector: "CallExpression[callee.type='MemberExpression'][callee.property.name=/^(select|selectDistinct|insert|update|delete|execute)$/][callee.object.name=/^(db|tx)$/]",
  message: 'Reads and writes go through the module’s *.queries.ts (GUIDE: nothing outside queries writes SQL).',
};
const queryBuildingOnContext = {
  selector: "CallExpression[callee.type='MemberExpression'][callee.property.name=/^(select|selectDistinct|insert|update|delete|execute)$/][callee.object.type='MemberExpression'][callee.object.property.name='db']",
  message: queryBuilding.message,
};

const drizzle = { group: ['drizzle-orm', 'drizzle-orm/*'], message: 'Drizzle belongs in *.queries.ts, *.table.ts, *.resource.ts and the database modules.' };
const hono = { group: ['hono', 'hono/*', '@hono/*'], message: 'HTTP stays in server/http and the *.routes.ts / *.handlers.ts files.' };
const serverFromConsole = {
  group: ['@/server/**', '!@/server/**/*.schemas', '!@/server/context/roles'],
  message: 'The console imports from server/ only *.schemas.ts (and the roles list); everything else reaches it through the API.',
};
/**
 * Another module is reached through its public files (schemas, table, queries, service, resource, manifest) or
 * one of the shared mechanisms other modules plug into or call (named here, and in docs/decisions.md).
 */
const moduleInternals = {
  group: [
    '@/server/modules/*/*',
    ...['schemas', 'table', 'queries', 'service', 'resource', 'module'].map((role) => `!@/server/modules/*/*.${role}`),
    '!@/server/modules/module',
    '!@/server/modules/teams/team-registry',
    '!@/server/modules/teams/team-visibility',
    '!@/server/modules/teams/team-assignments',
    '!@/server/modules/tags/tag-sources',
    '!@/server/modules/tags/tags.rules',
    '!@/server/modules/files/file-reference-registry',
    '!@/server/modules/files/file-references',
    '!@/server/modules/quick-filters/quick-filter-usages',
    '!@/server/modules/quick-filters/quick-filter-condition',
    '!@/server/modules/resource-limits/resource-limits.check',
    '!@/server/modules/resource-limits/resource-limits.usage',
    '!@/server/modules/customers/customer-statistics',
    '!@/server/modules/audit-log/audit-log.writer',
    '!@/server/modules/file-folders/folder-access',
    '!@/server/modules/users/user-activity',
  ],
  message: 'Another module is used through its public files (schemas, table, queries, service, resource, module) or a shared mechanism named in eslint.config.mjs.',
};
const serverHttp = ['server/http/**', 'server/**/*.routes.ts', 'server/**/*.handlers.ts', 'server/main.ts'];
const notProduction = ['server/**/*.test.ts', 'server/test/**', 'server/**/*.test-kit.ts', 'server/**/*.test-helpers.ts', 'server/**/*.test-support.ts'];

export default tseslint.config(
  {
    ignores: ['.next/**', 'dist/**', 'drizzle/**', 'node_modules/**', 'data/**', 'test-results/**', 'playwright-report/**', 'next-env.d.ts', 'public/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', fetch: 'readonly', AbortController: 'readonly', TextEncoder: 'readonly', TextDecoder: 'readonly', structuredClone: 'readonly', performance: 'readonly', queueMicrotask: 'readonly', FormData: 'readonly', Blob: 'readonly', File: 'readonly', Headers: 'readonly', Request: 'readonly', Response: 'readonly', ReadableStream: 'readonly', crypto: 'readonly', window: 'readonly', document: 'readonly', navigator: 'readonly', localStorage: 'readonly', sessionStorage: 'readonly', location: 'readonly', globalThis: 'readonly', NodeJS: 'readonly', URLSearchParams: 'readonly', atob: 'readonly', btoa: 'readonly', setImmediate: 'readonly', HTMLElement: 'readonly', HTMLInputElement: 'readonly', Event: 'readonly', KeyboardEvent: 'readonly', MouseEvent: 'readonly', DOMException: 'readonly', requestAnimationFrame: 'readonly', cancelAnimationFrame: 'readonly', Image: 'readonly', getComputedStyle: 'readonly', ResizeObserver: 'readonly', IntersectionObserver: 'readonly', MutationObserver: 'readonly', XMLHttpRequest: 'readonly', WebSocket: 'readonly', Intl: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      // zod-openapi's route types need a cast in a few declared places (issue 11 point 5 removes those in handlers).
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  {
    files: ['app/**/*.{ts,tsx}', 'components/**/*.{ts,tsx}', 'lib/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      'no-restricted-imports': ['error', { patterns: [serverFromConsole, drizzle] }],
    },
  },
  // Server below HTTP: no Hono (server/http, *.routes.ts and *.handlers.ts speak HTTP; schemas use zod-openapi).
  {
    files: ['server/**/*.ts'],
    ignores: [...serverHttp, ...notProduction, 'server/modules/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [hono] }] },
  },
  {
    files: ['server/modules/**/*.ts'],
    ignores: [...serverHttp, ...notProduction, 'server/modules/**/*.schemas.ts', 'server/modules/index.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [hono, moduleInternals] }] },
  },
  {
    files: ['server/modules/**/*.routes.ts', 'server/modules/**/*.handlers.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [drizzle, moduleInternals] }] },
  },
  {
    files: ['server/modules/**/*.schemas.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [drizzle, { group: ['@/server/**', '!@/server/**/*.schemas'], message: 'Schemas import no server code: the console imports them.' }] }] },
  },
  // Query building (db/tx .select/.insert/.update/.delete/.execute) only in queries files and the database modules.
  {
    files: ['server/modules/**/*.ts', 'server/auth/**/*.ts', 'server/http/**/*.ts', 'server/context/**/*.ts'],
    ignores: [...notProduction, 'server/modules/**/*.queries.ts', 'server/**/*.table.ts', 'server/modules/audit-log/audit-log.writer.ts', 'server/modules/users/bootstrap.ts'],
    rules: { 'no-restricted-syntax': ['error', queryBuilding, queryBuildingOnContext] },
  },
);
