import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import {
  api,
  collectConsoleErrors,
  createCustomer,
  createUser,
  passwordGrant,
  rootGroupId,
  screenshot,
  screenshotAtBothWidths,
  signIn,
  uniqueSuffix,
} from './fixtures';

const mailDir = process.env.E2E_MAIL_DIR ?? '';

type Mail = { to: string[]; subject: string; text: string };
type AlertPage = { totalElements: number; content: { id: number; open: boolean; closedAtDate?: string }[] };

/** The messages the run's SMTP sink received for `email`, oldest first (scripts/e2e-mail-sink.mjs). */
function mailsTo(email: string): Mail[] {
  return readdirSync(mailDir)
    .sort()
    .map((name) => JSON.parse(readFileSync(join(mailDir, name), 'utf8')) as Mail)
    .filter((m) => m.to.includes(email));
}

/*
 * What bounds the wait for the alert (the product's own clocks): a /player sends a heartbeat every
 * DEVICE_HEARTBEAT_SECONDS (10 s in scripts/e2e.mjs, 60 by default) and turns OFFLINE 2.5 intervals after it was last
 * seen, found by the offline sweep every 15 s; the rule, checked every 60 s (the API's shortest period), opens the alert
 * at its first evaluation after the screen has been silent for its one minute (the shortest). So 60–130 s after the
 * player goes; its return closes the alert at the rule's next evaluation, within ~65 s.
 */
const OFFLINE_ALERT_WITHIN_MS = 330_000;
const RECOVERY_WITHIN_MS = 150_000;

test('a screen that goes dark opens an alert (alerts page, screen page, e-mail, bell); when it comes back the alert closes with an “online” e-mail', async ({
  browser,
  page,
  request,
}) => {
  // Bounds, not expectations: the outage and the recovery above, plus the set-up on a busy machine.
  test.setTimeout(OFFLINE_ALERT_WITHIN_MS + RECOVERY_WITHIN_MS + 180_000);
  expect(mailDir, 'run through node scripts/e2e.mjs, which starts the SMTP sink (E2E_MAIL_DIR)').toBeTruthy();
  const errors = collectConsoleErrors(page);
  const suffix = uniqueSuffix();
  const admin = (await passwordGrant(request)).access_token;
  const customer = await createCustomer(request, admin, `Outage ${suffix}`);
  const owner = await createUser(request, admin, customer.id, 'OWNER', 'Olive Owner', suffix);
  const token = (await passwordGrant(request, owner.email, owner.password)).access_token;
  const opsEmail = `ops-${suffix}@example.com`;
  const screenName = `Lobby screen ${suffix}`;
  const ruleName = 'Lobby dark';

  // The owner's set-up: a folder, two channels (e-mail to the desk, the console's bell for the owner) and a rule on
  // the folder that watches all week, all day, as often and as soon as the API allows.
  const lobby = await api<{ id: string }>(request, token, 'POST', `/api/deviceGroup/${await rootGroupId(request, token, 'deviceGroup')}`, {
    name: `Lobby ${suffix}`,
    type: 'NORMAL',
  });
  const byMail = await api<{ id: number }>(request, token, 'POST', '/api/alertRuleNotificationChannel', {
    name: 'Ops desk',
    comment: '',
    channelType: 'EMAIL',
    notify: [opsEmail],
  });
  const byBell = await api<{ id: number }>(request, token, 'POST', '/api/alertRuleNotificationChannel', {
    name: 'My bell',
    comment: '',
    channelType: 'USER_NOTIFICATION',
    notify: [owner.id],
  });
  const rule = await api<{ id: number; scheduledEvaluateSeconds: number }>(request, token, 'POST', '/api/alertRule', {
    '@type': 'DeviceOffline',
    name: ruleName,
    comment: '',
    enabled: true,
    condition: { '@type': 'DeviceOfflineAndNoActivityForMinutes', inactiveMinutes: 1, deviceGroupId: lobby.id, recursive: true },
    workingDays: { monday: true, tuesday: true, wednesday: true, thursday: true, friday: true, saturday: true, sunday: true },
    workingTime: { allDay: true, timeZone: 'UTC' },
    scheduledEvaluateSeconds: 60,
    delayEvaluateAfterViolationMinutes: 0,
    notificationChannels: [{ id: byMail.id }, { id: byBell.id }],
  });
  expect(rule.scheduledEvaluateSeconds).toBe(60);

  // The screen: a browser at /player, added by its code and moved into the watched folder.
  const screenContext = await browser.newContext({ viewport: { width: 960, height: 540 } });
  const player = await screenContext.newPage();
  const playerErrors = collectConsoleErrors(player);
  await player.goto('/player');
  const code = player.getByTestId('activation-code');
  await expect(code).toHaveText(/^\d{4}$/, { timeout: 30_000 });
  const screenId = (
    await api<{ id: string }>(request, token, 'POST', '/api/v2/device/assignToCustomer', {
      activationCode: await code.textContent(),
      deviceName: screenName,
      timeZone: 'UTC',
      licenseStatus: 'UN_LICENSED',
    })
  ).id;
  await api(request, token, 'POST', '/api/v2/device/move', { deviceIds: [screenId], targetGroupId: lobby.id });
  await expect(player.locator('body')).toHaveAttribute('data-state', 'playing', { timeout: 60_000 });
  await expect(player.locator('body')).toHaveAttribute('data-online', 'true', { timeout: 30_000 });

  await signIn(page, owner.email, owner.password);
  await page.goto(`/screens/${screenId}`);
  const status = page.getByRole('main').locator('[data-status]').first();
  await expect(status).toHaveAttribute('data-status', 'ONLINE', { timeout: 30_000 });
  const openAlerts = page.getByRole('region', { name: /open alert/i });
  await expect(openAlerts).toHaveCount(0);

  // The screen goes away: its browser closes. The player keeps its credentials in IndexedDB; the saved state brings
  // the same screen back later.
  const screenState = await screenContext.storageState({ indexedDB: true });
  expect(playerErrors).toEqual([]);
  await screenContext.close();
  const wentAt = Date.now();

  // The screen's page is live (read every 5 s): it turns offline, then shows the open alert.
  await expect(status).toHaveAttribute('data-status', 'OFFLINE', { timeout: OFFLINE_ALERT_WITHIN_MS });
  await expect(openAlerts).toBeVisible({ timeout: OFFLINE_ALERT_WITHIN_MS });
  test.info().annotations.push({ type: 'offline alert after', description: `${Math.round((Date.now() - wentAt) / 1000)} s` });
  await expect(openAlerts.getByRole('heading', { name: 'Open alert' })).toBeVisible();
  await expect(openAlerts.getByRole('listitem')).toHaveCount(1);
  await expect(openAlerts.getByRole('listitem')).toContainText(ruleName);
  await expect(openAlerts.getByRole('listitem')).toContainText(/since \S/);
  await screenshotAtBothWidths(page, 'screen-open-alert');

  // The alerts page, reached from the screen's section: the one open alert, of this screen and rule.
  await openAlerts.getByRole('link', { name: 'Show on the alerts page' }).click();
  await expect(page.getByRole('heading', { name: 'Alerts', level: 1 })).toBeVisible();
  await expect(page).toHaveURL(/[?&]state=OPEN/);
  const alertRow = page.getByRole('main').getByRole('row').filter({ hasText: screenName });
  await expect(alertRow).toHaveCount(1);
  await expect(alertRow).toContainText('Open');
  await expect(alertRow).toContainText(ruleName);
  await expect(alertRow.getByRole('link', { name: screenName })).toHaveAttribute('href', `/screens/${screenId}`);
  await screenshot(page, 'alerts-outage-open-1440');

  // The e-mail reached the desk, and the owner's bell has it (its count is asked every 30 s).
  const offlineSubject = `Screen '${screenName}' is offline (${ruleName})`;
  await expect.poll(() => mailsTo(opsEmail).map((m) => m.subject), { timeout: 60_000 }).toEqual([offlineSubject]);
  expect(mailsTo(opsEmail)[0]!.text).toContain(`Screen: ${screenName} (${screenId})`);
  const bell = page.getByRole('button', { name: 'Notifications (1 unread)' });
  await expect(bell).toBeVisible({ timeout: 60_000 });
  await bell.click();
  const bellItem = page.getByRole('menu', { name: 'Notifications' }).getByTestId('notification-item').filter({ hasText: offlineSubject });
  await expect(bellItem).toHaveCount(1);
  await screenshot(page, 'alerts-outage-bell-1440');
  // Opening it marks it read and leads to the screen.
  await bellItem.click();
  await expect(page).toHaveURL(new RegExp(`/screens/${screenId}$`));
  await expect(openAlerts).toBeVisible();
  await expect(page.getByRole('button', { name: 'Notifications', exact: true })).toBeVisible();

  // The screen comes back: a browser with the saved state is the same screen, playing without a new code.
  const backContext = await browser.newContext({ viewport: { width: 960, height: 540 }, storageState: screenState });
  const back = await backContext.newPage();
  const backErrors = collectConsoleErrors(back);
  await back.goto('/player');
  await expect(back.locator('body')).toHaveAttribute('data-state', 'playing', { timeout: 60_000 });
  await expect(back.locator('body')).toHaveAttribute('data-online', 'true', { timeout: 30_000 });
  await expect(back.getByTestId('activation-code')).toBeHidden();
  const cameAt = Date.now();
  await expect(status).toHaveAttribute('data-status', 'ONLINE', { timeout: 30_000 });

  // The rule's next evaluation closes the alert: gone from the screen's page, closed on the alerts page, one e-mail.
  await expect(openAlerts).toHaveCount(0, { timeout: RECOVERY_WITHIN_MS });
  test.info().annotations.push({ type: 'alert closed after', description: `${Math.round((Date.now() - cameAt) / 1000)} s` });
  await screenshot(page, 'screen-alert-closed-1440');
  const onlineSubject = `Screen '${screenName}' is online again (${ruleName})`;
  await expect.poll(() => mailsTo(opsEmail).map((m) => m.subject), { timeout: 60_000 }).toEqual([offlineSubject, onlineSubject]);
  const all = await api<AlertPage>(request, token, 'GET', `/api/alert/device?alertRuleId=${rule.id}`);
  expect(all.totalElements, 'one outage, one alert').toBe(1);
  expect(all.content[0]).toMatchObject({ open: false, closedAtDate: expect.any(String) });

  await page.goto('/alerts?state=CLOSED');
  await expect(page.getByRole('heading', { name: 'Alerts', level: 1 })).toBeVisible();
  await expect(alertRow).toHaveCount(1);
  await expect(alertRow).toContainText('Closed');
  await expect(alertRow).toContainText(ruleName);
  await screenshot(page, 'alerts-outage-closed-1440');
  await expect(page.getByRole('button', { name: 'Notifications (1 unread)' })).toBeVisible({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Notifications (1 unread)' }).click();
  await expect(
    page.getByRole('menu', { name: 'Notifications' }).getByTestId('notification-item').filter({ hasText: onlineSubject }),
  ).toHaveCount(1);
  await page.keyboard.press('Escape');

  expect(backErrors).toEqual([]);
  expect(errors).toEqual([]);
  await backContext.close();
});
