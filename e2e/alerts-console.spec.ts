import { expect, test } from '@playwright/test';
import {
  api,
  collectConsoleErrors,
  collectFailedResponses,
  createCustomer,
  createUser,
  passwordGrant,
  registerAndClaim,
  screenshot,
  screenshotAtBothWidths,
  signIn,
  uniqueSuffix,
} from './fixtures';

type Folder = { id: string; name: string };
type Rule = {
  id: number;
  name: string;
  comment: string;
  condition: Record<string, unknown>;
  workingDays: Record<string, boolean>;
  workingTime: Record<string, unknown>;
  scheduledEvaluateSeconds: number;
  notificationChannels: { id: number; name: string }[];
  alertSmsTemplate?: string;
};

test('a technician watches a folder with a rule made on the page; the offline screen’s alert is listed; a viewer reads alerts only', async ({
  page,
  browser,
  request,
}) => {
  // The screen must be offline for the rule's one minute before an evaluation finds it: the test waits for that state.
  test.setTimeout(360_000);
  const errors = collectConsoleErrors(page);
  const failures = collectFailedResponses(page);
  const suffix = uniqueSuffix();
  const admin = (await passwordGrant(request)).access_token;
  const customer = await createCustomer(request, admin, `Alerts ${suffix}`);
  const q = `customerId=${customer.id}`;
  const tech = await createUser(request, admin, customer.id, 'TECHNICIAN', 'Tamsin', suffix);
  const viewer = await createUser(request, admin, customer.id, 'VIEWER', 'Vera', suffix);
  const root = (
    await api<{ content: Folder[] }>(request, admin, 'GET', `/api/v2/deviceGroup?${q}&search=${encodeURIComponent('parentId=NULL')}`)
  ).content[0]!;
  const lobby = await api<Folder>(request, admin, 'POST', `/api/deviceGroup/${root.id}?${q}`, { name: 'Lobby' });
  await api(request, admin, 'POST', `/api/deviceGroup/${root.id}?${q}`, { name: 'Back office' });
  // A screen that never connects: offline from its claim on.
  const screenId = await registerAndClaim(request, admin, customer.id, 'Lobby display');
  await api(request, admin, 'POST', `/api/v2/device/move?${q}`, { deviceIds: [screenId], targetGroupId: lobby.id });
  const channel = await api<{ id: number }>(request, admin, 'POST', `/api/alertRuleNotificationChannel?${q}`, {
    name: 'Ops desk',
    comment: '',
    channelType: 'EMAIL',
    notify: ['ops@example.com'],
  });

  await signIn(page, tech.email, tech.password);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: 'Alert rules' }).click();
  await expect(page.getByRole('heading', { name: 'Alert rules', level: 1 })).toBeVisible();
  await expect(page.getByText('No alert rules yet')).toBeVisible();

  // Create: a folder, one minute offline, every day all day, checked every minute, told on the channel.
  await page.getByRole('button', { name: 'New alert rule' }).first().click();
  const create = page.getByRole('dialog', { name: 'New alert rule' });
  await create.getByLabel('Name').fill('Lobby offline');
  await create.getByLabel('Offline for at least').fill('1');
  await create.getByRole('button', { name: 'Create rule' }).click();
  await expect(create.getByText('Choose a folder')).toBeVisible();
  await create.getByTestId('device-folder-Lobby').first().getByRole('button', { name: 'Lobby', exact: true }).click();
  await expect(create.getByTestId('alert-rule-folder')).toHaveText('Watching: Lobby');
  await create.getByLabel('Sat', { exact: true }).check();
  await create.getByLabel('Sun', { exact: true }).check();
  await create.getByLabel('All day').check();
  await expect(create.getByLabel('From')).toHaveCount(0);
  await create.getByLabel('Check every').fill('0');
  await create.getByRole('checkbox', { name: 'Ops desk' }).check();
  await expect(create.getByRole('list', { name: 'Chosen channels' })).toContainText('Ops desk');
  await screenshot(page, 'alert-rule-dialog-1440');
  await create.getByRole('button', { name: 'Create rule' }).click();
  await expect(create.getByText('A whole number from 1 to 1,440')).toBeVisible();
  await create.getByLabel('Check every').fill('1');
  await create.getByRole('button', { name: 'Create rule' }).click();
  await expect(create).toBeHidden();

  const rows = page.getByRole('main').getByRole('row');
  const ruleRow = rows.filter({ hasText: 'Lobby offline' });
  await expect(ruleRow).toBeVisible();
  await expect(ruleRow).toContainText('Screen offline');
  await expect(ruleRow).toContainText('Offline 1 min in Lobby and below');
  await expect(ruleRow).toContainText('Ops desk');
  await screenshotAtBothWidths(page, 'alert-rules-list');

  // Edit: a click on the name; the type is fixed; a comment and an SMS text of its own.
  await ruleRow.getByRole('button', { name: 'Lobby offline', exact: true }).click();
  const edit = page.getByRole('dialog', { name: 'Edit alert rule' });
  await expect(edit.getByTestId('alert-rule-type')).toContainText('Screen offline');
  await expect(edit.getByTestId('alert-rule-folder')).toHaveText('Watching: Lobby');
  await expect(edit.getByLabel('Check every')).toHaveValue('1');
  await edit.getByLabel('Comment').fill('Front desk calls the installer');
  await edit.locator('summary', { hasText: 'Messages' }).click();
  await edit.getByLabel('SMS when an alert opens').fill('{deviceName} in {folderPath} is {event}');
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(edit).toBeHidden();
  const saved = await api<{ content: Rule[] }>(request, admin, 'GET', `/api/alertRule?${q}`);
  expect(saved.content).toEqual([
    expect.objectContaining({
      name: 'Lobby offline',
      comment: 'Front desk calls the installer',
      condition: expect.objectContaining({ inactiveMinutes: 1, deviceGroupId: lobby.id, recursive: true, tagFilter: null }),
      workingDays: { monday: true, tuesday: true, wednesday: true, thursday: true, friday: true, saturday: true, sunday: true },
      workingTime: expect.objectContaining({ allDay: true }),
      scheduledEvaluateSeconds: 60,
      notificationChannels: [{ id: channel.id, name: 'Ops desk' }],
      alertSmsTemplate: '{deviceName} in {folderPath} is {event}',
    }),
  ]);
  const ruleId = saved.content[0]!.id;

  // A taken name is refused at its field (at 1024 × 768, the smallest window the console is made for).
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.getByRole('button', { name: 'New alert rule' }).first().click();
  await create.getByLabel('Watch for').selectOption('DatasourceError');
  await expect(create.getByLabel('Failed refreshes in a row')).toHaveValue('3');
  await create.getByLabel('Name').fill('Lobby offline');
  await create.getByRole('button', { name: 'Create rule' }).click();
  await expect(create.getByText('Another rule has this name.')).toBeVisible();
  await screenshot(page, 'alert-rule-dialog-1024');
  await create.getByRole('button', { name: 'Cancel' }).click();
  await expect(create).toBeHidden();

  // Every entry stays reachable at 768 high: the list scrolls (the last one lies below the fold), and on the
  // collapsed rail a name shows beside its icon.
  await nav.getByRole('link', { name: 'Teams' }).click();
  await expect(page.getByRole('heading', { name: 'Teams', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Collapse sidebar' }).click();
  const rulesLink = nav.getByRole('link', { name: 'Alert rules' });
  await rulesLink.hover();
  const tooltip = rulesLink.locator('[aria-hidden="true"]', { hasText: 'Alert rules' });
  await expect(tooltip).toBeVisible();
  const [link, tip] = [(await rulesLink.boundingBox())!, (await tooltip.boundingBox())!];
  expect(tip.x).toBeGreaterThanOrEqual(link.x + link.width);
  expect(Math.abs(tip.y + tip.height / 2 - (link.y + link.height / 2))).toBeLessThan(4);
  await screenshot(page, 'alerts-rail-1024');
  await page.getByRole('button', { name: 'Expand sidebar' }).click();
  await page.setViewportSize({ width: 1440, height: 900 });

  // The screen has been offline for a minute: an evaluation opens its alert.
  await expect
    .poll(async () => (await api<{ totalElements: number }>(request, admin, 'GET', `/api/alert/device?${q}&state=OPEN`)).totalElements, {
      timeout: 180_000,
      intervals: [2_000],
    })
    .toBe(1);
  await nav.getByRole('link', { name: 'Alerts', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Alerts', level: 1 })).toBeVisible();
  const alertRow = rows.filter({ hasText: 'Lobby display' });
  await expect(alertRow).toBeVisible();
  await expect(alertRow.getByRole('link', { name: 'Lobby display' })).toHaveAttribute('href', `/screens/${screenId}`);
  await expect(alertRow).toContainText('Open');
  await expect(alertRow).toContainText('Lobby offline');
  await expect(alertRow).toContainText('Lobby');
  // Since when: relative, with the exact time on hover.
  await expect(alertRow.locator('time').first()).toHaveAttribute('title', /\d/);
  await screenshotAtBothWidths(page, 'alerts-list');

  // Filters are the server's, in the URL.
  await page.getByRole('combobox', { name: 'State' }).selectOption('CLOSED');
  await expect(page).toHaveURL(/[?&]state=CLOSED/);
  await expect(alertRow).toHaveCount(0);
  await page.getByRole('combobox', { name: 'State' }).selectOption('OPEN');
  await expect(alertRow).toBeVisible();
  await page.getByRole('combobox', { name: 'Alert rule' }).selectOption({ label: 'Lobby offline' });
  await expect(page).toHaveURL(new RegExp(`[?&]rule=${ruleId}`));
  await expect(alertRow).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search alerts by screen or folder' }).fill('nowhere');
  await expect(alertRow).toHaveCount(0);
  await page.getByRole('searchbox', { name: 'Search alerts by screen or folder' }).fill('lobby');
  await expect(alertRow).toBeVisible();
  // No datasource alerts: the empty state explains them and leads to the rules.
  await page.getByRole('tab', { name: 'Datasources' }).click();
  await page.getByRole('combobox', { name: 'State' }).selectOption('all');
  await page.getByRole('combobox', { name: 'Alert rule' }).selectOption('');
  await page.getByRole('searchbox', { name: 'Search alerts by datasource' }).fill('');
  await expect(page.getByText('No alerts', { exact: true })).toBeVisible();
  await expect(page.getByRole('main').getByRole('link', { name: 'Alert rules' }).first()).toBeVisible();

  // Delete, confirmed: the rule and its alerts go.
  await nav.getByRole('link', { name: 'Alert rules' }).click();
  await ruleRow.getByRole('button', { name: 'Actions for Lobby offline' }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete alert rule?' });
  await confirm.getByRole('button', { name: 'Delete rule' }).click();
  await expect(confirm).toBeHidden();
  await expect(ruleRow).toHaveCount(0);

  // The asked-for refusal (the taken name), and nothing else.
  expect(failures).toEqual(['409 POST /api/alertRule']);
  expect(errors.filter((e) => !/status of 409/.test(e))).toEqual([]);

  // A viewer reads alerts (no rule filter, no way to the rules) and has no Alert rules entry.
  const context = await browser.newContext();
  const viewerPage = await context.newPage();
  await signIn(viewerPage, viewer.email, viewer.password);
  const viewerNav = viewerPage.getByRole('navigation', { name: 'Main' });
  await expect(viewerNav.getByRole('link', { name: 'Alerts', exact: true })).toBeVisible();
  await expect(viewerNav.getByRole('link', { name: 'Alert rules' })).toHaveCount(0);
  await viewerNav.getByRole('link', { name: 'Alerts', exact: true }).click();
  await expect(viewerPage.getByRole('heading', { name: 'Alerts', level: 1 })).toBeVisible();
  await expect(viewerPage.getByText('No alerts', { exact: true })).toBeVisible();
  await expect(viewerPage.getByRole('combobox', { name: 'State' })).toBeVisible();
  await expect(viewerPage.getByRole('combobox', { name: 'Alert rule' })).toHaveCount(0);
  await expect(viewerPage.getByRole('main').getByRole('link', { name: 'Alert rules' })).toHaveCount(0);
  await screenshotAtBothWidths(viewerPage, 'alerts-viewer-empty');
  await context.close();
});
