import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { collectConsoleErrors, signIn } from './fixtures';

/*
 * The Content-Security-Policy of the console pages (a nonce per request, proxy.ts) and of the API reference
 * (/api/docs): each page sends one, works under it, and the browser reports no violation.
 */

const SHOTS = process.env.E2E_SHOTS_DIR ?? 'test-results/screens';

/** Records every `securitypolicyviolation` the page's documents see (the console log shows them too). */
async function recordViolations(page: Page) {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
  });

  return () => page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations);
}

const nonceOf = (policy: string | undefined) => /'nonce-([^']+)'/.exec(policy ?? '')?.[1];

test('console pages send a policy with a fresh nonce, their scripts carry it, and they work under it', async ({ page }) => {
  test.setTimeout(120_000);
  const errors = collectConsoleErrors(page);
  const violations = await recordViolations(page);
  const login = await page.goto('/login');
  const loginPolicy = login!.headers()['content-security-policy'];
  expect(loginPolicy).toContain("'strict-dynamic'");
  expect(loginPolicy).toContain("frame-ancestors 'none'");
  expect(loginPolicy).not.toContain('unsafe-eval');
  const nonce = nonceOf(loginPolicy);
  expect(nonce).toBeTruthy();
  // Every script Next rendered carries this request's nonce.
  const scriptNonces = await page.locator('script').evaluateAll((scripts) => scripts.map((s) => (s as HTMLScriptElement).nonce));
  expect(scriptNonces.length).toBeGreaterThan(0);
  expect(new Set(scriptNonces)).toEqual(new Set([nonce]));

  // Signing in (client-side form, next-auth) and a page with data work under it.
  await signIn(page);
  for (const path of ['/media', '/content', '/screens']) {
    const res = await page.goto(path);
    const policy = res!.headers()['content-security-policy'];
    expect(nonceOf(policy), path).toBeTruthy();
    expect(nonceOf(policy), `${path}: a nonce per request`).not.toBe(nonce);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(await violations(), path).toEqual([]);
  }
  expect(errors).toEqual([]);
});

test('the API reference (/api/docs) sends its policy and renders every operation under it', async ({ page }) => {
  // Swagger UI parses and renders the whole document (about 1 MB) in the page: slow on a busy machine.
  test.setTimeout(240_000);
  mkdirSync(SHOTS, { recursive: true });
  const errors = collectConsoleErrors(page);
  const violations = await recordViolations(page);
  const res = await page.goto('/api/docs');
  const policy = res!.headers()['content-security-policy'];
  expect(policy).toContain("default-src 'none'");
  expect(policy).toMatch(/script-src 'self'(;|$)/);
  await expect(page.getByRole('heading', { name: /Digital Signage Management API/, level: 1 })).toBeVisible({ timeout: 180_000 });
  // Open one operation: its responses, the derived ones included, render.
  const operation = page.getByRole('button', { name: /^GET \/api\/v2\/user\/me / });
  await operation.click();
  await expect(page.getByRole('cell', { name: '503' }).first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: `${SHOTS}/api-docs.png` });
  expect(await violations()).toEqual([]);
  expect(errors).toEqual([]);
});
