import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  resolve: { alias: { '@': root.replace(/\/$/, '') } },
  test: {
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['**/*.unit.test.ts'], exclude: ['node_modules/**', '.next/**'] },
      },
      {
        extends: true,
        test: {
          name: 'api',
          include: ['**/*.api.test.ts', '**/*.integration.test.ts'],
          exclude: ['node_modules/**', '.next/**'],
          globalSetup: ['./server/test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
