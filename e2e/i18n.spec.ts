import { expect, test, type Page } from '@playwright/test';
import {
  collectConsoleErrors,
  createCustomer,
  createUser,
  passwordGrant,
  screenshot,
  signInFromLoginPage,
  uniqueSuffix,
  waitForHydration,
} from './fixtures';
import { englishLeft } from './i18n-check';

/*
 * Item 15: a user switches the console to German on the account page, which then shows no English (e2e/i18n-check.ts),
 * and switches back. Every other page in German: i18n-pages.spec.ts.
 */

async function expectNoEnglish(page: Page) {
  expect(await englishLeft(page), `English left on ${page.url()}`).toEqual([]);
}

test('a user switches the console to German and back', async ({ page, request }) => {
  test.setTimeout(180_000);
  const errors = collectConsoleErrors(page);
  const admin = await passwordGrant(request);
  const suffix = uniqueSuffix();
  const customer = await createCustomer(request, admin.access_token, `I18n ${suffix}`);
  const owner = await createUser(request, admin.access_token, customer.id, 'OWNER', 'Sprach Owner', suffix);

  await page.goto('/login');
  await waitForHydration(page);
  await signInFromLoginPage(page, owner.email, owner.password);
  // The first console render after a build compiles nothing, but a busy machine may take a while.
  await page.waitForURL((url) => url.pathname === '/', { timeout: 60_000 });
  await page.goto('/account');
  await waitForHydration(page);
  await expect(page.getByRole('heading', { name: 'Profile' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');

  // The language is saved on the user through the API and takes effect at once.
  const saved = page.waitForResponse((res) => res.url().includes('/api/user') && res.request().method() !== 'GET');
  await page.getByLabel('Language').selectOption('de');
  await page.getByRole('button', { name: 'Save profile' }).click();
  expect((await saved).ok()).toBe(true);
  await expect(page.getByRole('heading', { name: 'Profil', exact: true })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(page.locator('dd').getByText('Administrator', { exact: true })).toBeVisible();

  await expectNoEnglish(page);
  await screenshot(page, 'i18n-account-de-1440');
  await page.setViewportSize({ width: 1024, height: 768 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await screenshot(page, 'i18n-account-de-1024');

  // An address the console does not know answers 404 with a page of its own, in German too.
  const missing = await page.goto('/gibt-es-nicht');
  expect(missing?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Seite nicht gefunden' })).toBeVisible();
  await expectNoEnglish(page);
  await page.getByRole('link', { name: 'Zur Übersicht' }).click();
  await expect(page).toHaveURL((url) => url.pathname === '/');
  // The browser reports the 404 document itself as a failed resource; nothing else may fail.
  errors.splice(0, errors.length, ...errors.filter((e) => !/status of 404/.test(e)));
  await page.goto('/account');
  await waitForHydration(page);

  // Back to English: the same control, now in German.
  await page.getByLabel('Sprache').selectOption('en');
  await page.getByRole('button', { name: 'Profil speichern' }).click();
  await expect(page.getByRole('heading', { name: 'Profile', exact: true })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');

  expect(errors).toEqual([]);
});

test("the sign-in page follows the browser's language", async ({ browser }) => {
  const context = await browser.newContext({ locale: 'de-DE', extraHTTPHeaders: { 'Accept-Language': 'de-DE,de;q=0.9' } });
  const page = await context.newPage();
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Bei der Signage-Konsole anmelden' })).toBeVisible();
  await expect(page.getByLabel('Passwort')).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expectNoEnglish(page);
  await context.close();
});
