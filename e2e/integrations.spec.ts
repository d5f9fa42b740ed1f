import { expect, test } from '@playwright/test';
import {
  api,
  collectConsoleErrors,
  createCustomer,
  createUser,
  passwordGrant,
  rootGroupId,
  screenshot,
  signIn,
  uniqueSuffix,
} from './fixtures';

const TRIGGER = '/public-api/integration/webhooks';

test('a technician makes a webhook key (its token shown once) and an emergency action for a screen folder, enables it, tries it, sees the emergency on /player and the execution', async ({
  browser,
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const errors = collectConsoleErrors(page);
  const suffix = uniqueSuffix();
  const admin = (await passwordGrant(request)).access_token;
  const customer = await createCustomer(request, admin, `Webhooks ${suffix}`);
  const q = `customerId=${customer.id}`;
  const tech = await createUser(request, admin, customer.id, 'TECHNICIAN', 'Tessa', suffix);
  const techToken = (await passwordGrant(request, tech.email, tech.password)).access_token;
  // A registered screen in its own folder: what the action's "Screens in a folder" targets.
  const lobby = await api<{ id: string }>(
    request,
    techToken,
    'POST',
    `/api/deviceGroup/${await rootGroupId(request, techToken, 'deviceGroup')}`,
    {
      name: `Lobby ${suffix}`,
      type: 'NORMAL',
    },
  );
  // The screen is a browser at /player, added by its code, with emergency content of its own.
  const screenContext = await browser.newContext({ viewport: { width: 960, height: 540 } });
  const player = await screenContext.newPage();
  const playerErrors = collectConsoleErrors(player);
  await player.goto('/player');
  const code = player.getByTestId('activation-code');
  await expect(code).toHaveText(/^\d{4}$/, { timeout: 30_000 });
  const screen = (
    await api<{ id: string }>(request, admin, 'POST', `/api/v2/device/assignToCustomer?${q}`, {
      activationCode: await code.textContent(),
      deviceName: `Lobby screen ${suffix}`,
      timeZone: 'UTC',
      licenseStatus: 'UN_LICENSED',
    })
  ).id;
  await api(request, admin, 'POST', `/api/v2/device/move?${q}`, { deviceIds: [screen], targetGroupId: lobby.id });
  const contentRoot = await rootGroupId(request, techToken, 'contentGroup');
  const evacuate = await api<{ id: string }>(request, techToken, 'POST', `/api/content?contentGroupId=${contentRoot}`, {
    name: `Evacuate now ${suffix}`,
    structureType: 'SLIDE',
    data: {
      Main: {
        pageStyle: { backgroundColor: '#b00020' },
        pageData: { screenSize: { width: 1920, height: 1080 }, durationMs: 60_000 },
        widgets: [
          {
            id: 'notice',
            type: 'text',
            x: 160,
            y: 390,
            width: 1600,
            height: 300,
            zIndex: 1,
            text: 'Please leave the building',
            textStyle: { fontSize: 120, fontWeight: 'bold', align: 'center', color: '#ffffff' },
          },
        ],
      },
    },
  });
  const onlyScreen = `${q}&search=${encodeURIComponent(`id=${screen}`)}`;
  await api(
    request,
    admin,
    'POST',
    `/api/v2/device/assignContent?${onlyScreen}&contentId=${evacuate.id}&asEmergency=true&asAssigned=false`,
  );
  await expect(player.locator('body')).toHaveAttribute('data-state', 'playing', { timeout: 60_000 });
  await expect(player.locator('body')).not.toHaveAttribute('data-layer', 'EMERGENCY');

  await signIn(page, tech.email, tech.password);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Integrations' }).click();
  await expect(page.getByRole('heading', { name: 'Integrations', level: 1 })).toBeVisible();
  await expect(page.getByTestId('webhook-actions-empty')).toBeVisible();

  // API keys: a new key's token is shown once, with a curl command that carries it.
  await page.getByRole('tab', { name: 'API keys' }).click();
  await expect(page).toHaveURL(/[?&]tab=keys/);
  await page.getByRole('button', { name: 'New key' }).first().click();
  const newKey = page.getByRole('dialog', { name: 'New API key' });
  await newKey.getByLabel('Name').fill('Fire alarm panel');
  await newKey.getByRole('button', { name: 'Create key' }).click();
  const created = page.getByRole('dialog', { name: 'API key created' });
  await expect(created.getByText('It is shown only this once and cannot be shown again.', { exact: false })).toBeVisible();
  const token = (await created.getByTestId('webhook-key-token').textContent())?.trim() ?? '';
  expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  await expect(created.getByTestId('webhook-key-curl')).toContainText(`-H 'X-Webhook-Apikey: ${token}'`);
  await expect(created.getByTestId('webhook-key-curl')).toContainText(`${new URL(page.url()).origin}${TRIGGER}`);
  await screenshot(page, 'integrations-key-created');
  await created.getByRole('button', { name: 'Done' }).click();
  await expect(created).toBeHidden();
  const keyRow = page.getByRole('main').getByRole('row').filter({ hasText: 'Fire alarm panel' });
  await expect(keyRow).toBeVisible();
  await expect(keyRow.getByText('Everything')).toBeVisible();
  // Gone from the page once the dialog closed; the key itself works (it names no action yet).
  await expect(page.getByText(token)).toHaveCount(0);
  const unknown = await request.post(TRIGGER, { headers: { 'X-Webhook-Apikey': token }, data: { event_id: `nothing-${suffix}` } });
  expect(unknown.status()).toBe(404);
  expect((await unknown.json()).errorReason).toBe('unknownEventId');

  // Actions: family, action and targeting, then the folder of the screen.
  await page.getByRole('tab', { name: 'Actions' }).click();
  await expect(page).not.toHaveURL(/[?&]tab=keys/);
  await page.getByRole('button', { name: 'New action' }).first().click();
  const form = page.getByRole('dialog', { name: 'New webhook action' });
  await form.getByLabel('Name').fill('Fire alarm: emergency in the lobby');
  await form.getByLabel('Event ID').fill('fire alarm');
  await expect(form.getByRole('radio', { name: 'Screens' })).toBeChecked();
  await form.getByLabel('What it does').selectOption({ label: 'Turn emergency content on' });
  await form.getByLabel('Which screens').selectOption({ label: 'Screens in a folder' });
  await form.getByRole('button', { name: 'Create action' }).click();
  await expect(form.getByText('An event ID has no spaces or line breaks')).toBeVisible();
  await expect(form.getByText('Choose at least one folder.')).toBeVisible();
  const eventId = `fire-alarm-${suffix}`;
  await form.getByLabel('Event ID').fill(eventId);
  const tree = form.getByTestId('webhook-target-picker');
  await tree.getByText(`Lobby ${suffix}`, { exact: true }).click();
  await expect(tree.getByRole('list', { name: 'Chosen folders' })).toContainText(`Lobby ${suffix}`);
  await screenshot(page, 'integrations-action-form');
  await form.getByRole('button', { name: 'Create action' }).click();
  await expect(form).toBeHidden();

  // The new action's panel: how to call it.
  const panel = page.getByRole('dialog', { name: /^Fire alarm: emergency in the lobby/ });
  await expect(panel.getByTestId('webhook-trigger-url')).toHaveText(`${new URL(page.url()).origin}${TRIGGER}`);
  await expect(panel.getByTestId('webhook-trigger-body')).toContainText(`"event_id": "${eventId}"`);
  await expect(panel.getByTestId('webhook-trigger-curl')).toContainText("-H 'X-Webhook-Apikey: <your-webhook-api-key>'");
  await expect(panel.getByTestId('webhook-executions-empty')).toBeVisible();
  // Created disabled (spec 3): a try is answered, and nothing runs.
  await panel.getByRole('button', { name: 'Try it' }).click();
  await expect(panel.getByTestId('webhook-try-answer')).toHaveText('The action is disabled, so nothing ran. Enable it to try it.');
  await panel.getByRole('button', { name: 'Close' }).click();
  await expect(panel).toBeHidden();

  // Enabled from the list's switch (a PUT with name, action, enabled and parameters together): targets are kept.
  const row = page.getByRole('main').getByRole('row').filter({ hasText: 'Fire alarm: emergency in the lobby' });
  await expect(row.getByText('Turn emergency content on')).toBeVisible();
  await expect(row.getByText('Screens in a folder')).toBeVisible();
  await expect(row.getByText(`Lobby ${suffix}`)).toBeVisible();
  const toggle = row.getByRole('switch', { name: 'Fire alarm: emergency in the lobby enabled' });
  await expect(toggle).toHaveAttribute('aria-checked', 'false');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-checked', 'true');
  await expect(row.getByText(`Lobby ${suffix}`)).toBeVisible();

  // Try it: the answer, then the execution with its outcome, listed under the action.
  await row.getByRole('button', { name: 'Fire alarm: emergency in the lobby', exact: true }).click();
  await expect(panel).toBeVisible();
  await expect(page).toHaveURL(/[?&]action=\d+/);
  // Edited from its panel: the form holds what was saved (the folder), and the panel follows the change.
  await panel.getByRole('button', { name: 'Edit action' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit webhook action' });
  await expect(edit.getByLabel('Which screens')).toHaveValue('GROUP');
  await expect(edit.getByRole('list', { name: 'Chosen folders' })).toContainText(`Lobby ${suffix}`);
  await edit.getByLabel('Name').fill('Fire alarm: emergency in the lobby and foyer');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  await expect(page.getByRole('dialog', { name: 'Fire alarm: emergency in the lobby and foyer' })).toBeVisible();
  await expect(panel.getByText(`Lobby ${suffix}`)).toBeVisible();
  await panel.getByRole('button', { name: 'Try it' }).click();
  await expect(panel.getByTestId('webhook-try-answer')).toHaveText('Accepted: the action runs now.');
  const result = panel.getByTestId('webhook-try-result');
  await expect(result.getByText('Succeeded', { exact: true })).toBeVisible();
  const executions = panel.getByTestId('webhook-executions').getByRole('row');
  await expect(executions).toHaveCount(2);
  const execution = executions.nth(1);
  await expect(execution).toContainText(tech.email);
  await expect(execution.getByText('Succeeded', { exact: true })).toBeVisible();
  // The screen heard the command at once and plays its emergency content.
  await expect(player.locator('body')).toHaveAttribute('data-layer', 'EMERGENCY', { timeout: 30_000 });
  await expect(player.locator('#stage > .layer[data-state="current"] [data-widget="text"]')).toHaveText('Please leave the building');
  await screenshot(player, 'integrations-player-emergency');
  await screenshot(page, 'integrations-action-detail');
  await panel.getByRole('button', { name: 'Close' }).click();
  await expect(panel).toBeHidden();

  // Revoking the key stops it at once.
  await page.getByRole('tab', { name: 'API keys' }).click();
  await keyRow.getByRole('button', { name: 'Actions for Fire alarm panel' }).click();
  await page.getByRole('menuitem', { name: 'Revoke' }).click();
  const revoke = page.getByRole('alertdialog', { name: 'Revoke API key?' });
  await revoke.getByRole('button', { name: 'Revoke key' }).click();
  await expect(revoke).toBeHidden();
  await expect(keyRow).toHaveCount(0);
  const refused = await request.post(TRIGGER, { headers: { 'X-Webhook-Apikey': token }, data: { event_id: eventId } });
  expect([401, 403]).toContain(refused.status());

  expect(errors).toEqual([]);
  expect(playerErrors).toEqual([]);
  await screenContext.close();
});
