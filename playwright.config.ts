import { defineConfig, devices } from '@playwright/test';

const baseURL = process.env.E2E_BASE_URL ?? 'http://127.0.0.1:3000';

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  // A failing test runs once more, recording a trace (npx playwright show-trace). Tracing every first attempt cost
  // ~40 % of the suite's time: in headless Chromium with software rendering the trace's screencast made the compositor
  // encode every frame. For now a test that passes on its second attempt is reported "flaky" and does not fail the
  // run: two known races wait for a fix (docs/decisions/test-suite.md); then failOnFlakyTests goes back on.
  retries: 1,
  failOnFlakyTests: false,
  workers: 2,
  // Generous bounds, not expectations: two workers and the server share two cores, and a test waits for state,
  // so a slow machine only makes it take longer.
  timeout: 120_000,
  expect: { timeout: 20_000 },
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : [['list']],
  use: {
    baseURL,
    screenshot: 'only-on-failure',
    trace: 'on-first-retry',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], viewport: { width: 1440, height: 900 } } }],
});
