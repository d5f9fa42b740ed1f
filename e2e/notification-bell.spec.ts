import { expect, test, type Page } from '@playwright/test';
import {
  api,
  collectConsoleErrors,
  collectFailedResponses,
  createCustomer,
  createUser,
  passwordGrant,
  screenshot,
  screenshotAtBothWidths,
  signIn,
  uniqueSuffix,
} from './fixtures';

const BASE = '/api/alertRuleNotificationChannel';

const bellVisible = (page: Page) => () => expect(page.getByTestId('notification-bell')).toBeVisible();

test('a console-notification channel made on the page tells the signed-in user through the bell; a webhook’s secret is shown once', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const errors = collectConsoleErrors(page);
  const failures = collectFailedResponses(page);
  const suffix = uniqueSuffix();
  const admin = (await passwordGrant(request)).access_token;
  const customer = await createCustomer(request, admin, `Bell ${suffix}`);
  const q = `customerId=${customer.id}`;
  const tech = await createUser(request, admin, customer.id, 'TECHNICIAN', 'Bela', suffix);
  await createUser(request, admin, customer.id, 'VIEWER', 'Other person', suffix);

  await signIn(page, tech.email, tech.password);
  const bell = page.getByRole('button', { name: 'Notifications', exact: true });
  await expect(bell).toBeVisible();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Notification channels' }).click();
  await expect(page.getByRole('heading', { name: 'Notification channels', level: 1 })).toBeVisible();
  const rows = page.getByRole('main').getByRole('row');

  // A console notification names users of the tenant, chosen by name.
  await page.getByRole('button', { name: 'New channel' }).first().click();
  const create = page.getByRole('dialog', { name: 'New notification channel' });
  await create.getByLabel('Name').fill('Me');
  await create.getByLabel('Type').selectOption('USER_NOTIFICATION');
  const picker = create.getByTestId('user-picker');
  await picker.getByRole('searchbox', { name: 'Search users by name or e-mail' }).fill('Bela');
  await picker.getByRole('checkbox', { name: /Bela/ }).check();
  await expect(picker.getByRole('list', { name: 'Chosen users' })).toContainText('Bela');
  await screenshotAtBothWidths(page, 'notification-channel-users', bellVisible(page));
  await create.getByRole('button', { name: 'Create channel' }).click();
  await expect(create).toBeHidden();
  const me = rows.filter({ hasText: 'Me' }).filter({ hasText: 'Console notification' });
  await expect(me.getByText('1 user', { exact: true })).toBeVisible();
  const stored = await api<{ content: { notify: string[] }[] }>(request, admin, 'GET', `${BASE}?${q}`);
  expect(stored.content).toEqual([expect.objectContaining({ notify: [tech.id] })]);

  // Send test: the first attempt's result, then the bell has it.
  await me.getByRole('button', { name: 'Actions for Me' }).click();
  await page.getByRole('menuitem', { name: 'Send test' }).click();
  const result = page.getByRole('dialog', { name: 'Test notification' });
  await expect(result.getByText('Delivered', { exact: true })).toBeVisible();
  await expect(result.getByText('1 user(s) notified')).toBeVisible();
  await screenshot(page, 'notification-channel-test-1440');
  await result.getByRole('button', { name: 'Close' }).click();
  await expect(result).toBeHidden();
  const unreadBell = page.getByRole('button', { name: 'Notifications (1 unread)' });
  await expect(unreadBell).toBeVisible();
  await expect(unreadBell.getByTestId('notification-count')).toHaveText('1');

  // The delivery log lists the test.
  await me.getByRole('button', { name: 'Actions for Me' }).click();
  await page.getByRole('menuitem', { name: 'Delivery log' }).click();
  const log = page.getByRole('dialog', { name: 'Delivery log: Me' });
  const logRow = log.getByRole('row').filter({ hasText: 'Test' });
  await expect(logRow).toHaveCount(1);
  await expect(logRow.getByText('Delivered')).toBeVisible();
  await screenshot(page, 'notification-channel-log-1440');
  await page.keyboard.press('Escape');
  await expect(log).toBeHidden();

  // The bell lists it, unread; "Mark all read" empties the count.
  await unreadBell.click();
  const menu = page.getByRole('menu', { name: 'Notifications' });
  const item = menu.getByTestId('notification-item').filter({ hasText: 'Test notification' });
  await expect(item).toHaveCount(1);
  await expect(item).toContainText('(unread)');
  await screenshotAtBothWidths(page, 'notification-bell-open', bellVisible(page));
  await menu.getByRole('menuitem', { name: 'Mark all read' }).click();
  await expect(menu.getByText('All read', { exact: true })).toBeVisible();
  await expect(item).not.toContainText('(unread)');
  await page.keyboard.press('Escape');
  await expect(bell).toBeVisible();
  await expect(page.getByTestId('notification-count')).toHaveCount(0);
  const techToken = (await passwordGrant(request, tech.email, tech.password)).access_token;
  const count = await api<{ unread: number }>(request, techToken, 'GET', '/api/notification/unreadCount');
  expect(count.unread).toBe(0);

  // A webhook's signing secret is shown once, and gone after the dialog closes.
  await page.getByRole('button', { name: 'New channel' }).first().click();
  await create.getByLabel('Name').fill('Receiver');
  await create.getByLabel('Type').selectOption('WEBHOOK');
  await create.getByLabel('URL').fill('ftp://127.0.0.1/hook');
  await create.getByRole('button', { name: 'Create channel' }).click();
  await expect(create.getByText('“ftp://127.0.0.1/hook” is not an http(s) URL')).toBeVisible();
  await create.getByLabel('URL').fill('http://127.0.0.1:9/hook');
  await create.getByRole('button', { name: 'Create channel' }).click();
  const shown = page.getByRole('dialog', { name: 'Webhook channel created' });
  const secret = (await shown.getByTestId('channel-secret-value').textContent()) ?? '';
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
  await expect(shown.getByText('Standard Webhooks', { exact: false })).toBeVisible();
  await screenshot(page, 'notification-channel-secret-1440');
  await shown.getByRole('button', { name: 'Done' }).click();
  await expect(shown).toBeHidden();
  const receiver = rows.filter({ hasText: 'Receiver' });
  await expect(receiver.getByText('http://127.0.0.1:9/hook')).toBeVisible();
  await expect(page.getByText(secret)).toHaveCount(0);

  // Rotating shows a new one, once.
  await receiver.getByRole('button', { name: 'Actions for Receiver' }).click();
  await page.getByRole('menuitem', { name: 'Rotate secret' }).click();
  await page.getByRole('alertdialog', { name: 'Rotate the signing secret?' }).getByRole('button', { name: 'Rotate secret' }).click();
  const rotated = page.getByRole('dialog', { name: 'New signing secret' });
  await expect(rotated.getByTestId('channel-secret-value')).toHaveText(/^whsec_/);
  await expect(rotated.getByTestId('channel-secret-value')).not.toHaveText(secret);
  await rotated.getByRole('button', { name: 'Done' }).click();
  await expect(rotated).toBeHidden();

  // A disabled channel says why and is enabled again.
  const receiverId = (await api<{ content: { id: number; name: string }[] }>(request, admin, 'GET', `${BASE}?${q}`)).content.find(
    (c) => c.name === 'Receiver',
  )!.id;
  await api(request, admin, 'PUT', `${BASE}/${receiverId}?${q}`, { enabled: false });
  await page.reload();
  await expect(receiver.getByText('Disabled', { exact: true })).toBeVisible();
  await expect(receiver.getByText(/^Disabled by /)).toBeVisible();
  await screenshotAtBothWidths(page, 'notification-channels-disabled', bellVisible(page));
  await receiver.getByRole('button', { name: 'Actions for Receiver' }).click();
  await page.getByRole('menuitem', { name: 'Enable again' }).click();
  await page.getByRole('alertdialog', { name: 'Enable the channel again?' }).getByRole('button', { name: 'Enable channel' }).click();
  await expect(receiver.getByText('Disabled', { exact: true })).toHaveCount(0);

  expect(failures).toEqual([]);
  expect(errors).toEqual([]);
});
