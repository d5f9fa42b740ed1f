import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import {
  api,
  collectConsoleErrors,
  createCustomer,
  createUser,
  passwordGrant,
  screenshot,
  signInFromLoginPage,
  uniqueSuffix,
} from './fixtures';
import { startSimulator } from './simulator';

/*
 * Issue 28 items 1 and 4: the screen page's settings start at the screen's own values (none: said so), a
 * value sent while the screen is away shows as pending (also after a reload) and as confirmed once the
 * screen acknowledged it; what interrupts a screen asks first, naming it; every command, settings
 * included, is in "Recent commands" with when it was issued, delivered and confirmed.
 */

test("settings show the screen's values, pending until the screen confirms them; disruptive commands ask first", async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(360_000);
  const errors = collectConsoleErrors(page);
  const suffix = uniqueSuffix();
  const admin = await passwordGrant(request);
  const customer = await createCustomer(request, admin.access_token, `Settings ${suffix}`);
  const owner = await createUser(request, admin.access_token, customer.id, 'OWNER', 'Settings Owner', suffix);
  const ownerToken = (await passwordGrant(request, owner.email, owner.password)).access_token;
  const state = mkdtempSync(path.join(os.tmpdir(), 'signage-settings-'));
  await page.goto('/login');
  await signInFromLoginPage(page, owner.email, owner.password);
  // The first page of a fresh server compiles its data on a busy machine: a generous wait.
  await expect(page.getByRole('heading', { name: /^Welcome/ })).toBeVisible({ timeout: 60_000 });
  let sim = startSimulator(baseURL!, state);
  try {
    await expect.poll(() => sim.code(), { timeout: 20_000, message: sim.output() }).toMatch(/^\d{4}$/);
    const device = await api<{ id: string }>(request, ownerToken, 'POST', '/api/v2/device/assignToCustomer', {
      activationCode: sim.code(),
      deviceName: 'Foyer',
      timeZone: 'Europe/Berlin',
      licenseStatus: 'UN_LICENSED',
    });
    await expect.poll(() => sim.output(), { timeout: 20_000 }).toContain('claimed by a tenant');

    // Nothing set yet: no fixed defaults, and the page says the screen uses its own.
    await page.goto(`/screens/${device.id}`);
    await expect(page.getByRole('heading', { name: 'Foyer' })).toBeVisible();
    await expect(page.getByLabel('Volume (0–100)')).toHaveValue('');
    await expect(page.getByTestId('setting-volume-state')).toHaveText('Not set: the screen uses its own.');
    await expect(page.getByTestId('setting-workingHours-state')).toHaveText('Not set: the screen plays around the clock.');
    await expect(page.getByRole('group', { name: 'Working hours' }).getByRole('checkbox', { checked: true })).toHaveCount(0);
    await expect(page.getByLabel('Daily reboot')).toHaveValue('');

    // The screen goes away: a volume sent now is pending, also after a reload.
    sim.stop();
    await sim.exited();
    await page.getByLabel('Volume (0–100)').fill('20');
    await page.getByRole('button', { name: 'Set', exact: true }).first().click();
    await expect(page.getByRole('status').filter({ hasText: 'Volume set to 20.' })).toBeVisible();
    await expect(page.getByTestId('setting-volume-state')).toContainText(/^Pending — sent .+, not yet confirmed by the screen\.$/);
    await page.reload();
    // A reload on a busy machine: the page's reads may take a while.
    await expect(page.getByLabel('Volume (0–100)')).toHaveValue('20', { timeout: 30_000 });
    await expect(page.getByTestId('setting-volume-state')).toContainText('not yet confirmed by the screen');
    const history = page.getByRole('list', { name: 'Recent commands' });
    const volume = history.getByRole('listitem').filter({ hasText: 'Volume 20' });
    await expect(volume).toContainText('Waiting for the screen');
    await screenshot(page, 'screen-settings-pending-1440');

    // The screen comes back (the same device): it gets the command, applies it and confirms it.
    sim = startSimulator(baseURL!, state);
    await expect.poll(() => sim.output(), { timeout: 30_000 }).toContain('command volume {"level":20}');
    await expect(page.getByTestId('setting-volume-state')).toContainText('Confirmed by the screen', { timeout: 30_000 });
    await expect(volume).toContainText('Done');
    await expect(volume).toContainText(/Issued .+ · delivered .+ · confirmed .+/);
    await page.reload();
    // A reload on a busy machine: the page's reads may take a while.
    await expect(page.getByLabel('Volume (0–100)')).toHaveValue('20', { timeout: 30_000 });
    await expect(page.getByTestId('setting-volume-state')).toContainText('Confirmed by the screen');

    // Working hours set elsewhere (the API) show as the screen has them: Saturday only.
    const screens = `customerId=${customer.id}&search=${encodeURIComponent(`id=${device.id}`)}`;
    await api(request, ownerToken, 'POST', `/api/v2/device/workingHours?${screens}`, {
      mode: 'SCREEN',
      days: { SAT: { from: '10:00', to: '14:00' } },
    });
    await page.reload();
    const hours = page.getByRole('group', { name: 'Working hours' });
    await expect(hours.getByRole('checkbox', { name: 'Sat' })).toBeChecked({ timeout: 30_000 });
    await expect(hours.getByRole('checkbox', { checked: true })).toHaveCount(1);
    await expect(hours.getByRole('checkbox', { name: 'Sat' })).toBeChecked();
    await expect(hours.getByLabel('Sat from')).toHaveValue('10:00');
    await expect(hours.getByLabel('Sat to')).toHaveValue('14:00');
    await expect(history.getByRole('listitem').filter({ hasText: 'Working hours' })).toContainText('Done', { timeout: 30_000 });

    // Disruptive commands ask first, naming the screen; cancelling sends nothing.
    await page.getByRole('button', { name: 'Turn off' }).click();
    const displayOff = page.getByRole('alertdialog', { name: 'Turn off the display of Foyer?' });
    await expect(displayOff).toBeVisible();
    await displayOff.getByRole('button', { name: 'Cancel' }).click();
    await expect(displayOff).toBeHidden();
    await expect(history.getByRole('listitem').filter({ hasText: 'Display' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Turn off' }).click();
    await displayOff.getByRole('button', { name: 'Turn off' }).click();
    await expect(page.getByTestId('setting-display-value')).toHaveText('Off');
    await expect(history.getByRole('listitem').filter({ hasText: 'Display off' })).toContainText('Done', { timeout: 30_000 });

    await page.getByRole('button', { name: 'Start emergency' }).click();
    const emergency = page.getByRole('alertdialog', { name: 'Start an emergency on Foyer?' });
    await screenshot(page, 'screen-settings-confirm-emergency');
    await emergency.getByRole('button', { name: 'Start emergency' }).click();
    await expect(page.getByTestId('setting-emergency-value')).toHaveText('On');
    await expect(history.getByRole('listitem').filter({ hasText: 'Emergency on' })).toContainText('Done', { timeout: 30_000 });

    await page.getByRole('button', { name: 'Restart' }).click();
    await expect(page.getByRole('alertdialog', { name: 'Restart Foyer?' })).toBeVisible();
    await page.getByRole('alertdialog', { name: 'Restart Foyer?' }).getByRole('button', { name: 'Restart' }).click();
    await expect(history.getByRole('listitem').filter({ hasText: 'Restart' })).toContainText('Done', { timeout: 30_000 });
    await screenshot(page, 'screen-settings-1440');
    await page.setViewportSize({ width: 1024, height: 768 });
    await screenshot(page, 'screen-settings-1024');
    expect(errors).toEqual([]);
  } finally {
    sim.stop();
    rmSync(state, { recursive: true, force: true });
  }
});
