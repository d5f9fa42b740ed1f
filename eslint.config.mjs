// ESLint (flat config): typescript-eslint's recommended rules, React's hook rules and Next's rules for the
// console, and the architecture's boundaries (GUIDE.md "A resource module"). The deviations kept on purpose
// are listed in docs/decisions.md, "Lint and boundaries".
import eslintComments from '@eslint-community/eslint-plugin-eslint-comments';
import js from '@eslint/js';
import nextPlugin from '@next/eslint-plugin-next';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const nodeAndBrowserGlobals = Object.fromEntries(
  [
    'process',
    'console',
    'Buffer',
    'URL',
    'URLSearchParams',
    'setTimeout',
    'clearTimeout',
    'setInterval',
    'clearInterval',
    'setImmediate',
    'fetch',
    'AbortController',
    'AbortSignal',
    'TextEncoder',
    'TextDecoder',
    'structuredClone',
    'performance',
    'queueMicrotask',
    'FormData',
    'Blob',
    'File',
    'Headers',
    'Request',
    'Response',
    'ReadableStream',
    'WritableStream',
    'TransformStream',
    'crypto',
    'globalThis',
    'atob',
    'btoa',
    'window',
    'document',
    'navigator',
    'localStorage',
    'sessionStorage',
    'location',
    'HTMLElement',
    'HTMLInputElement',
    'Event',
    'KeyboardEvent',
    'MouseEvent',
    'DOMException',
    'requestAnimationFrame',
    'cancelAnimationFrame',
    'Image',
    'getComputedStyle',
    'ResizeObserver',
    'IntersectionObserver',
    'MutationObserver',
    'XMLHttpRequest',
    'WebSocket',
    'Intl',
    'NodeJS',
    'React',
  ].map((name) => [name, 'readonly']),
);

// --- boundaries --------------------------------------------------------------------------------------

const drizzle = {
  group: ['drizzle-orm', 'drizzle-orm/*'],
  message: 'Drizzle belongs in *.queries.ts, *.table.ts, *.resource.ts and the database modules.',
};
/** The HTTP framework; `z` from @hono/zod-openapi is the schema language and allowed everywhere. */
const hono = [
  {
    group: ['hono', 'hono/*', '@hono/node-server', '@hono/node-server/*'],
    message: 'HTTP stays in server/http and the *.routes.ts / *.handlers.ts files.',
  },
  {
    group: ['@hono/zod-openapi'],
    importNames: ['OpenAPIHono', 'createRoute'],
    message: 'HTTP stays in server/http and the *.routes.ts / *.handlers.ts files.',
  },
];
/** What the console may import from server/ at run time: wire schemas, and the role list (a plain constant). */
/** The console's links prefetch on intent, not on sight (components/ui/link.tsx). */
const nextLink = {
  group: ['next/link'],
  message: "Use Link from '@/components/ui/link': it prefetches when the pointer or focus reaches the link.",
};
/** Tables render their columns' templates through components/ui/data-table.tsx, which keeps cells mounted. */
const flexRender = {
  group: ['@tanstack/react-table'],
  importNames: ['flexRender'],
  message: 'Render tables with DataTable (components/ui/data-table.tsx): flexRender remounts every cell when columns are rebuilt.',
};
const serverFromConsole = {
  regex: '^@/server/(?!.*\\.schemas$)(?!context/roles$)',
  message: 'The console imports from server/ only *.schemas.ts (and types); everything else reaches it through the API.',
};
/** What a schemas file may import: other schemas and the pure zod helpers beside them. */
const serverFromSchemas = {
  regex: '^@/server/(?!.*\\.schemas$)(?!context/roles$)(?!http/update-body$)',
  message: 'Schemas import no server code but other schemas and zod helpers: the console imports them.',
};
/**
 * Another module is reached through its *.table.ts and *.schemas.ts files or its one public index.ts
 * (`@/server/modules/<name>`, exporting only what other modules use); behaviour crosses through that index or a
 * plug point (docs/decisions.md, "Modules"). Relative paths into a sibling module follow the same rule.
 */
const moduleInternals = {
  regex: '^(@/server/modules/|\\.\\./)[^/.][^/]*/(?![^/]+\\.(schemas|table)$)',
  message:
    'Another module is used through its index.ts (@/server/modules/<name>) or its *.table.ts / *.schemas.ts files; behaviour crosses through plug points.',
};

/** Query building on a database or transaction object: only in queries files and the named database modules. */
const queryBuilding = [
  {
    selector:
      "CallExpression[callee.type='MemberExpression'][callee.property.name=/^(select|selectDistinct|insert|update|delete|execute)$/][callee.object.name=/^(db|tx)$/]",
    message: 'Reads and writes go through the module’s *.queries.ts (GUIDE: nothing outside queries writes SQL).',
  },
  {
    selector:
      "CallExpression[callee.type='MemberExpression'][callee.property.name=/^(select|selectDistinct|insert|update|delete|execute)$/][callee.object.type='MemberExpression'][callee.object.property.name='db']",
    message: 'Reads and writes go through the module’s *.queries.ts (GUIDE: nothing outside queries writes SQL).',
  },
];

const serverHttp = ['server/http/**', 'server/**/*.routes.ts', 'server/**/*.handlers.ts', 'server/main.ts'];
const notProduction = ['server/**/*.test.ts', 'server/test/**', 'server/**/*.test-kit.ts'];
/** Modules that are database code by name (SQL condition builders and start-up), besides *.queries.ts. */
const databaseModules = [
  'server/**/*.queries.ts',
  'server/**/*.table.ts',
  'server/modules/audit-log/audit-log.writer.ts',
  'server/modules/users/bootstrap.ts',
  'server/modules/quick-filters/quick-filter-usages.ts',
  'server/modules/file-folders/folder-access.ts',
  'server/modules/folders/folder-tree.ts',
  'server/modules/tags/tags.rules.ts',
];

export default tseslint.config(
  {
    ignores: [
      '.next/**',
      'dist/**',
      'drizzle/**',
      'node_modules/**',
      'data/**',
      'test-results/**',
      'playwright-report/**',
      'next-env.d.ts',
      'public/**',
      'lib/api/generated/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: nodeAndBrowserGlobals },
    // A disable that no longer suppresses anything fails; every disable says why (`-- reason`).
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { '@eslint-community/eslint-comments': eslintComments },
    rules: {
      '@eslint-community/eslint-comments/require-description': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // Declared routes and drizzle's generics need `any` in a few typed places; casts are reviewed by hand.
      '@typescript-eslint/no-explicit-any': 'off',
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  // The console: hooks, Next, and no server code but wire schemas and types.
  {
    files: ['app/**/*.{ts,tsx}', 'components/**/*.{ts,tsx}', 'lib/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, '@next/next': nextPlugin },
    settings: { next: { rootDir: '.' } },
    rules: {
      ...nextPlugin.configs.recommended.rules,
      ...nextPlugin.configs['core-web-vitals'].rules,
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ ...serverFromConsole, allowTypeImports: true }, drizzle, nextLink, flexRender] },
      ],
    },
  },
  {
    files: ['components/ui/link.tsx'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [{ ...serverFromConsole, allowTypeImports: true }, drizzle] }],
    },
  },
  // Server code below HTTP: no HTTP framework.
  {
    files: ['server/**/*.ts'],
    ignores: [...serverHttp, ...notProduction, 'server/modules/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: hono }] },
  },
  // Modules: no HTTP framework outside routes/handlers; other modules only through their public files.
  {
    files: ['server/modules/**/*.ts'],
    ignores: [...serverHttp, ...notProduction, 'server/modules/**/*.schemas.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...hono, moduleInternals] }] },
  },
  {
    files: ['server/modules/**/*.routes.ts', 'server/modules/**/*.handlers.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [drizzle, moduleInternals] }] },
  },
  {
    files: ['server/**/*.schemas.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [drizzle, serverFromSchemas, ...hono] }] },
  },
  // Query building only in queries files and the database modules.
  {
    files: ['server/modules/**/*.ts', 'server/auth/**/*.ts', 'server/http/**/*.ts', 'server/context/**/*.ts'],
    ignores: [...notProduction, ...databaseModules],
    rules: { 'no-restricted-syntax': ['error', ...queryBuilding] },
  },
);
