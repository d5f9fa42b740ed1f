import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { collectConsoleErrors, createCustomer, passwordGrant, signIn } from './fixtures';

/*
 * Uploads from a console opened on another address than the configured public URL (issue 10, console
 * point 1). scripts/e2e.mjs starts the server on 127.0.0.1 with NEXTAUTH_URL (so PUBLIC_URL) naming
 * 127.0.0.1; these tests open the console on `localhost` — the same server under another origin —
 * and upload there. Local part URLs must name the origin the console was opened on, and a part that
 * cannot be sent must say why in the upload panel.
 */

const FIXTURES = fileURLToPath(new URL('./fixtures', import.meta.url));
const SHOTS = process.env.E2E_SHOTS_DIR ?? 'test-results/screens';
const partUrl = /\/api\/v2\/file\/upload\/[^/?]+\/part\/(\d+)/;

/** The same server under the other loopback name than the one the run configured. */
function secondOrigin(): string {
  const configured = new URL(process.env.E2E_BASE_URL ?? 'http://127.0.0.1:3000');
  const other = new URL(configured.href);
  other.hostname = configured.hostname === 'localhost' ? '127.0.0.1' : 'localhost';

  return other.origin;
}

async function seedTenant(request: APIRequestContext, label: string) {
  const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const admin = await passwordGrant(request);
  const customer = await createCustomer(request, admin.access_token, `Origin ${label} ${suffix}`);
  const email = `origin-${suffix}@example.com`;
  const password = `Origin-owner-${suffix}`;
  const res = await request.post(`/api/user/?customerId=${customer.id}`, {
    headers: { Authorization: `Bearer ${admin.access_token}` },
    data: { email, name: 'Olga Origin', role: 'OWNER', password },
  });
  expect(res.status(), await res.text()).toBe(201);

  return { email, password, customerId: customer.id, token: admin.access_token };
}

async function openUploadPanel(page: Page) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Media' }).click();
  await expect(page.getByRole('heading', { name: 'Media', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByTestId('upload-panel')).toBeVisible();

  return page.getByTestId('upload-panel').locator('input[type=file]:not([webkitdirectory])').first();
}

test('the console opened on a second origin uploads: part URLs name the origin it was opened on', async ({
  browser,
  request,
}, testInfo) => {
  test.setTimeout(180_000);
  mkdirSync(SHOTS, { recursive: true });
  const origin = secondOrigin();
  const seeded = await seedTenant(request, 'Second');
  // 20 MiB: three parts of the chunked session, plus a one-part PNG.
  const big = testInfo.outputPath('second-origin.json');
  const size = 20 * 1024 * 1024;
  writeFileSync(big, `{"data":"${'y'.repeat(size - 11)}"}`);

  const context = await browser.newContext({ baseURL: origin, viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const errors = collectConsoleErrors(page);
  const parts: Array<{ url: string; status: number }> = [];
  page.on('response', (res) => {
    if (partUrl.test(res.url())) parts.push({ url: res.url(), status: res.status() });
  });
  await signIn(page, seeded.email, seeded.password);
  expect(new URL(page.url()).origin).toBe(origin);
  const input = await openUploadPanel(page);
  await input.setInputFiles([join(FIXTURES, 'poster.png'), big]);
  await expect(page.getByTestId('upload-summary')).toContainText('Uploaded 2 files', { timeout: 90_000 });
  await page.screenshot({ path: join(SHOTS, 'upload-second-origin.png'), fullPage: true });

  expect(parts.length).toBe(4);
  for (const part of parts) {
    expect(new URL(part.url).origin).toBe(origin);
    expect(part.status).toBe(200);
  }
  await expect(page.getByTestId('upload-errors')).toBeHidden();
  const list = await request.get(`/api/v2/file?customerId=${seeded.customerId}&select=name,size&sort=name,asc`, {
    headers: { Authorization: `Bearer ${seeded.token}` },
  });
  const files = ((await list.json()) as { content: Array<{ name: string; size: number }> }).content;
  expect(files.map((f) => [f.name, f.size])).toEqual([
    ['poster.png', 30324],
    ['second-origin.json', size],
  ]);
  expect(errors).toEqual([]);
  await context.close();
});

test('a part that cannot be sent says why in the upload panel', async ({ browser, request }) => {
  test.setTimeout(120_000);
  const origin = secondOrigin();
  const seeded = await seedTenant(request, 'Refused');
  const context = await browser.newContext({ baseURL: origin, viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await signIn(page, seeded.email, seeded.password);
  const input = await openUploadPanel(page);
  // Every part fails as a blocked or unreachable address would: no response at all.
  await page.route(partUrl, (route) => route.abort('connectionrefused'));
  await input.setInputFiles(join(FIXTURES, 'portrait.png'));

  const failure = page.getByTestId('upload-errors');
  await expect(failure).toBeVisible({ timeout: 60_000 });
  await expect(failure).toContainText('portrait.png');
  await expect(failure).toContainText(`Part 1 could not be sent`);
  await expect(failure).toContainText(origin);
  await page.screenshot({ path: join(SHOTS, 'upload-part-failed.png'), fullPage: true });

  // Retrying once the address answers clears the message and finishes the upload.
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  await page.getByTestId('upload-panel').getByRole('button', { name: /retry/i }).first().click();
  await expect(page.getByTestId('upload-summary')).toContainText('Uploaded portrait.png', { timeout: 60_000 });
  await expect(failure).toBeHidden();
  await context.close();
});
