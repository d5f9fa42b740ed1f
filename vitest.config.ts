import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  resolve: { alias: { '@': root.replace(/\/$/, '') } },
  test: {
    // Every core (Vitest leaves one free by default: on CI's two cores that ran the suites on one).
    maxWorkers: availableParallelism(),
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['**/*.unit.test.ts'],
          exclude: ['node_modules/**', '.next/**'],
          // The property tests (fast-check) and the playback resolver tests take a second or two alone, and the
          // 5-second default was hit on a loaded 2-core machine: a limit against hangs, not a timing assertion.
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'api',
          include: ['**/*.api.test.ts', '**/*.integration.test.ts'],
          exclude: ['node_modules/**', '.next/**'],
          globalSetup: ['./server/test/global-setup.ts'],
          // undici (npm) becomes Node's fetch dispatcher once loaded: load it before every file, as the server does at
          // boot, so a test's fetch behaves the same whatever file ran first in its worker.
          setupFiles: ['./server/test/undici-first.ts'],
          // The app's module graph is loaded once per worker, not once per file (~5 s each): every file builds its
          // own app, database and config (server/test/harness.ts), and no API test mocks a module.
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          // `npm run test:cluster` (scripts/cluster-test.mjs): production server processes behind the test proxy, on
          // DATABASE_URL's PostgreSQL server. One file, its steps in order on one cluster; bounds against hangs only.
          name: 'cluster',
          include: ['**/*.cluster.test.ts'],
          exclude: ['node_modules/**', '.next/**'],
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 240_000,
        },
      },
    ],
  },
});
