import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { collectConsoleErrors, createCustomer, createUser, passwordGrant, screenshot, signInFromLoginPage, uniqueSuffix, waitForHydration } from './fixtures';

/*
 * Item 15: a user switches the console to German; the converted pages then carry no English catalogue text, and
 * switching back works. The check compares what is visible with the English catalogue, so phase 2 extends it by
 * adding pages (and the areas they use) to CONVERTED.
 */

/** The catalogue areas converted so far and the pages that show them. */
const CONVERTED_AREAS = ['common', 'auth', 'account', 'ui', 'labels', 'errors'];
const CONVERTED_PAGES = ['/account'];
/** Where the check looks: the page's own content. The shell (sidebar, user menu) is converted in phase 2, which widens this to 'body'. */
const CHECKED_REGION = 'main';

function leaves(tree: unknown, prefix = ''): Array<[string, string]> {
  return Object.entries(tree as Record<string, unknown>).flatMap(([key, value]) =>
    typeof value === 'string' ? [[`${prefix}${key}`, value] as [string, string]] : leaves(value, `${prefix}${key}.`),
  );
}

/** English catalogue values a German page must not show: those that differ from their German, without ICU arguments. */
function englishOnly(): Map<string, string> {
  const dir = join(process.cwd(), 'messages');
  const out = new Map<string, string>();
  for (const file of readdirSync(join(dir, 'en'))) {
    const area = file.replace(/\.json$/, '');
    if (!file.endsWith('.json') || !CONVERTED_AREAS.includes(area)) continue;
    const en = new Map(leaves(JSON.parse(readFileSync(join(dir, 'en', file), 'utf8'))));
    const de = new Map(leaves(JSON.parse(readFileSync(join(dir, 'de', file), 'utf8'))));
    for (const [key, value] of en) if (value !== de.get(key) && !/[{<]/.test(value)) out.set(value.trim(), `${area}.${key}`);
  }

  return out;
}

/** The trimmed text of every visible text node, and the accessible names and placeholders of controls. */
async function visibleTexts(page: Page): Promise<string[]> {
  return page.evaluate((region) => {
    const root = document.querySelector(region) ?? document.body;
    const texts: string[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      const text = node.textContent?.trim();
      if (!text || !parent || parent.closest('script,style,[hidden]') || !parent.checkVisibility()) continue;
      texts.push(text);
    }
    for (const element of root.querySelectorAll('[aria-label],[placeholder],[title]')) {
      for (const attribute of ['aria-label', 'placeholder', 'title']) {
        const value = element.getAttribute(attribute)?.trim();
        if (value) texts.push(value);
      }
    }

    return texts;
  }, CHECKED_REGION);
}

async function expectNoEnglish(page: Page) {
  const english = englishOnly();
  const left = (await visibleTexts(page)).filter((text) => english.has(text)).map((text) => `${english.get(text)}: ${text}`);
  expect(left, `English left on ${page.url()}`).toEqual([]);
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

  for (const path of CONVERTED_PAGES) {
    await page.goto(path);
    await waitForHydration(page);
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await expectNoEnglish(page);
  }
  await screenshot(page, 'i18n-account-de-1440');
  await page.setViewportSize({ width: 1024, height: 768 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await screenshot(page, 'i18n-account-de-1024');

  // Back to English: the same control, now in German.
  await page.getByLabel('Sprache').selectOption('en');
  await page.getByRole('button', { name: 'Profil speichern' }).click();
  await expect(page.getByRole('heading', { name: 'Profile', exact: true })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');

  expect(errors).toEqual([]);
});

test('the sign-in page follows the browser\'s language', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'de-DE', extraHTTPHeaders: { 'Accept-Language': 'de-DE,de;q=0.9' } });
  const page = await context.newPage();
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Bei der Signage-Konsole anmelden' })).toBeVisible();
  await expect(page.getByLabel('Passwort')).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expectNoEnglish(page);
  await context.close();
});
