import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { collectConsoleErrors, expectOnlyOption, screenshot, signIn, uniqueSuffix } from './fixtures';

/*
 * The README's "First steps", as a new operator follows them, every step in the console (no API shortcut):
 * a tenant, a user, an image, a browser at /player added by its code, a channel of the image for the screen's
 * folder, and the image on the screen.
 */

const PNG = {
  name: 'poster.png',
  mimeType: 'image/png',
  buffer: readFileSync(fileURLToPath(new URL('./fixtures/poster.png', import.meta.url))),
};

test('first steps: a tenant, a user, an image, a screen added by its code, and a channel it plays', async ({ page, browser, baseURL }) => {
  test.setTimeout(240_000);
  const errors = collectConsoleErrors(page);
  const suffix = uniqueSuffix();
  const tenant = `First steps ${suffix}`;
  const nav = page.getByRole('navigation', { name: 'Main' });

  // 2. Sign in as the first super admin.
  await signIn(page);

  // 3. A tenant, chosen in the tenant switcher.
  await nav.getByRole('link', { name: 'Customers' }).click();
  await page.getByRole('button', { name: 'New customer' }).first().click();
  const newCustomer = page.getByRole('dialog', { name: 'New customer' });
  await newCustomer.getByLabel('Name').fill(tenant);
  await newCustomer.getByRole('button', { name: 'Create customer' }).click();
  await expect(newCustomer).toBeHidden();
  await page.getByRole('button', { name: /Switch tenant/ }).click();
  const switcher = page.getByRole('dialog', { name: 'Switch tenant' });
  await switcher.getByRole('combobox', { name: 'Search tenants' }).fill(tenant);
  await expectOnlyOption(switcher.getByRole('option'), tenant);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('current-tenant')).toHaveText(tenant);

  // 4. A user: the tenant's administrator.
  await nav.getByRole('link', { name: 'Users', exact: true }).click();
  await page.getByRole('button', { name: 'New user' }).first().click();
  const newUser = page.getByRole('dialog', { name: 'New user' });
  const email = `owner-${suffix}@example.com`;
  await newUser.getByLabel('E-mail').fill(email);
  await newUser.getByLabel('Name').fill('First Owner');
  await newUser.getByLabel('Role').selectOption('OWNER');
  await newUser.getByLabel('Password').fill('First-steps-123');
  await newUser.getByRole('button', { name: 'Create user' }).click();
  await expect(newUser).toBeHidden();
  await expect(page.getByRole('row').filter({ hasText: email })).toContainText('Administrator');

  // 5. Something to show: an image.
  await nav.getByRole('link', { name: 'Media', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Media', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await page.getByTestId('upload-panel').locator('input[type=file]:not([webkitdirectory])').first().setInputFiles([PNG]);
  await expect(page.getByTestId('upload-summary')).toContainText('Uploaded poster.png', { timeout: 60_000 });

  // 6. The screen: a second browser at /player shows its code; Screens → Add screen takes it.
  const screenContext = await browser.newContext({ viewport: { width: 1280, height: 720 }, baseURL });
  const player = await screenContext.newPage();
  try {
    await player.goto('/player');
    const code = player.getByTestId('activation-code');
    await expect(code).toHaveText(/^\d{4}$/, { timeout: 20_000 });
    const activationCode = (await code.textContent())!;

    await nav.getByRole('link', { name: 'Screens', exact: true }).click();
    await page.getByRole('button', { name: 'Add screen' }).first().click();
    const addScreen = page.getByRole('dialog', { name: 'Add a screen' });
    await addScreen.getByLabel('Code on the screen').fill(activationCode);
    await addScreen.getByLabel('Name').fill('Reception');
    await screenshot(page, 'first-steps-add-screen');
    await addScreen.getByRole('button', { name: 'Add screen' }).click();
    await expect(page.getByRole('heading', { name: 'Reception' })).toBeVisible();
    await expect(player.locator('#pairing')).toBeHidden({ timeout: 60_000 });

    // 7. A channel of the image for every screen of the tenant.
    await nav.getByRole('link', { name: 'Channels', exact: true }).click();
    await page.getByRole('link', { name: 'New channel' }).first().click();
    // The list stays on screen until the editor arrives, and its search is labelled "…name": wait for the editor.
    await expect(page.getByRole('heading', { name: 'New channel', level: 1 })).toBeVisible();
    await page.getByLabel('Name', { exact: true }).fill('Welcome');
    await page.getByLabel('Type', { exact: true }).selectOption('ASSETS_STATIC');
    const library = page.getByRole('complementary', { name: 'Library' });
    await library.getByRole('tab', { name: 'Media' }).click();
    await library.getByRole('button', { name: 'Add poster.png' }).click();
    await expect(page.getByRole('list', { name: 'Media to play' })).toContainText('poster.png');
    await page.getByRole('navigation', { name: 'Screen folders' }).getByTestId('device-folder-All screens').click();
    await expect(page.getByTestId('target-count')).toContainText('Matches 1 screen');
    await page.getByRole('button', { name: 'Create channel' }).click();
    await expect(page).toHaveURL(/\/channels$/);
    await expect(page.getByRole('row').filter({ hasText: 'Welcome' })).toContainText('On air now');

    // The screen plays the image.
    await expect(player.locator('body')).toHaveAttribute('data-layer', 'CHANNELS', { timeout: 30_000 });
    await expect
      .poll(
        () =>
          player.evaluate(() => {
            const img = document.querySelector<HTMLImageElement>('#stage > .layer[data-state="current"] img');

            return Boolean(img?.complete && img.naturalWidth > 0);
          }),
        { timeout: 60_000 },
      )
      .toBe(true);
    await screenshot(player, 'first-steps-player');
  } finally {
    await screenContext.close();
  }
  expect(errors).toEqual([]);
});
