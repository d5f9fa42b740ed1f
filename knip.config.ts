// knip: unused files, exports, types and dependencies (`npm run knip`, in CI). Its plugins read Next.js (app/,
// next.config.mjs, proxy.ts, instrumentation-client.ts), Vitest (vitest.config.ts: the unit and api projects'
// test files are entries, so an export used only by tests counts as used), Playwright (e2e/), ESLint, PostCSS,
// Drizzle and TypeScript configs by themselves; the entries below are what no plugin knows. The choices are in
// docs/decisions.md, "Lint and boundaries".
import type { KnipConfig } from 'knip';

const config: KnipConfig = {
  entry: [
    // The web player (bundled by scripts/build-player.mjs); the custom server, server/main.ts, is known from package.json.
    'player/main.ts',
    'player/sw.ts',
    // Scripts run by npm scripts, CI and by hand; benchmark servers and load generators they spawn.
    'scripts/*.{mjs,ts}',
    'bench/*.{ts,mjs}',
    // Processes that tests spawn (a delivery worker killed with SIGKILL).
    'server/**/*.child.ts',
  ],
  project: ['**/*.{ts,tsx,mjs,css}'],
  ignoreDependencies: [
    // Next.js resolves `import 'server-only'` itself (a build-time guard); it is not an npm dependency here.
    'server-only',
    // scripts/lint-openapi.mjs runs its CLI by path (node_modules/@redocly/cli/bin/cli.js).
    '@redocly/cli',
  ],
  // Debian programs the benchmarks call.
  ignoreBinaries: ['taskset', 'pg_lsclusters', 'pg_ctlcluster', 'su'],
};

export default config;
