import { expect, test, type Page } from '@playwright/test';
import {
  api,
  collectConsoleErrors,
  collectFailedResponses,
  createCustomer,
  createUser,
  passwordGrant,
  screenshot,
  signIn,
  uniqueSuffix,
} from './fixtures';

const BASE = '/api/alertRuleNotificationChannel';

test('a technician in a team creates, finds, edits and deletes notification channels; the form checks recipients against the type', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const errors = collectConsoleErrors(page);
  const failures = collectFailedResponses(page);
  const suffix = uniqueSuffix();
  const admin = (await passwordGrant(request)).access_token;
  const customer = await createCustomer(request, admin, `Alerts ${suffix}`);
  const q = `customerId=${customer.id}`;
  const tech = await createUser(request, admin, customer.id, 'TECHNICIAN', 'Tariq', suffix);
  const team = await api<{ id: string }>(request, admin, 'POST', `/api/team?${q}`, { name: `Facility ${suffix}` });
  await api(request, admin, 'PUT', `/api/team/updateUserAssignments?teamId=${team.id}&${q}`, {
    resourcesToAdd: [{ id: tech.id, readOnly: false }],
  });
  // One channel the team does not see (it has another team), one a read-only one for it.
  const other = await api<{ id: string }>(request, admin, 'POST', `/api/team?${q}`, { name: `IT ${suffix}` });
  await api(request, admin, 'POST', `${BASE}?${q}&teamIds=${other.id}:false`, {
    name: 'IT only',
    comment: '',
    channelType: 'EMAIL',
    notify: ['it@example.com'],
  });
  await api(request, admin, 'POST', `${BASE}?${q}&teamIds=${team.id}:true`, {
    name: 'Managers',
    comment: 'Kept by the owners',
    channelType: 'EMAIL',
    notify: ['managers@example.com'],
  });

  await signIn(page, tech.email, tech.password);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: 'Notification channels' }).click();
  await expect(page.getByRole('heading', { name: 'Notification channels', level: 1 })).toBeVisible();
  const rows = page.getByRole('main').getByRole('row');
  await expect(rows.filter({ hasText: 'Managers' })).toBeVisible();
  await expect(rows.filter({ hasText: 'Managers' }).getByText('Read-only', { exact: true })).toBeVisible();
  await expect(rows.filter({ hasText: 'IT only' })).toHaveCount(0);

  // Create: the recipients are checked against the type, then the channel joins the technician's team.
  await page.getByRole('button', { name: 'New channel' }).first().click();
  const create = page.getByRole('dialog', { name: 'New notification channel' });
  await create.getByLabel('Name').fill('Night shift');
  await create.getByLabel('E-mail addresses').fill('night@example.com\n+4915112345678');
  await expect(create.getByTestId('team-choice').getByLabel(`Facility ${suffix}`)).toBeChecked();
  await create.getByRole('button', { name: 'Create channel' }).click();
  await expect(create.getByText('“+4915112345678” is not an e-mail address')).toBeVisible();
  await create.getByLabel('E-mail addresses').fill('night@example.com\nlead@example.com');
  await create.getByLabel('Comment').fill('Weekends too');
  await create.getByRole('button', { name: 'Create channel' }).click();
  await expect(create).toBeHidden();
  const night = rows.filter({ hasText: 'Night shift' });
  await expect(night).toBeVisible();
  await expect(night.getByText('night@example.com, lead@example.com')).toBeVisible();
  await expect(night.getByText('Weekends too')).toBeVisible();
  const assigned = await api<{ id: string }[]>(request, admin, 'GET', `/api/team/notificationChannelAssignments?teamId=${team.id}&${q}`);
  expect(assigned).toHaveLength(2);

  // A name the tenant has already is refused at its field.
  await page.getByRole('button', { name: 'New channel' }).first().click();
  await create.getByLabel('Name').fill('Night shift');
  await create.getByLabel('E-mail addresses').fill('other@example.com');
  await create.getByRole('button', { name: 'Create channel' }).click();
  await expect(create.getByText('Another channel has this name.')).toBeVisible();
  // SMS needs the server's gateway, which this server has not: the type says so.
  await create.getByLabel('Name').fill('Pager');
  await create.getByLabel('Type').selectOption('SMS');
  await create.getByLabel('Phone numbers').fill('+4915112345678');
  await create.getByRole('button', { name: 'Create channel' }).click();
  await expect(create.getByText('This server cannot send SMS (no SMS gateway is configured). Choose e-mail.')).toBeVisible();
  await create.getByRole('button', { name: 'Cancel' }).click();
  await expect(create).toBeHidden();

  // Search and sort are the server's, in the URL.
  await page.getByRole('searchbox', { name: 'Search notification channels by name' }).fill('night');
  await expect(page).toHaveURL(/[?&]q=night/);
  await expect(rows.filter({ hasText: 'Managers' })).toHaveCount(0);
  await expect(night).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search notification channels by name' }).fill('');
  await expect(rows.filter({ hasText: 'Managers' })).toBeVisible();

  // Edit: a click on the name.
  await night.getByRole('button', { name: 'Night shift', exact: true }).click();
  const edit = page.getByRole('dialog', { name: 'Edit notification channel' });
  await expect(edit.getByLabel('E-mail addresses')).toHaveValue('night@example.com\nlead@example.com');
  await edit.getByLabel('E-mail addresses').fill('night@example.com');
  await edit.getByLabel('Comment').fill('');
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(edit).toBeHidden();
  await expect(night.getByText('lead@example.com')).toHaveCount(0);
  const saved = await api<{ content: { name: string; comment: string; notify: string[] }[] }>(
    request,
    admin,
    'GET',
    `${BASE}?${q}&search=${encodeURIComponent('name=Night shift')}`,
  );
  expect(saved.content).toEqual([expect.objectContaining({ comment: '', notify: ['night@example.com'] })]);

  // Delete, confirmed.
  await night.getByRole('button', { name: 'Actions for Night shift' }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete notification channel?' });
  await confirm.getByRole('button', { name: 'Delete channel' }).click();
  await expect(confirm).toBeHidden();
  await expect(night).toHaveCount(0);

  // The two refusals asked for above (the taken name, SMS without a gateway), and nothing else.
  expect(failures).toEqual([`409 POST ${BASE}`, `400 POST ${BASE}`]);
  expect(errors.filter((e) => !/status of (409|400)/.test(e))).toEqual([]);
});

async function shoot(page: Page, name: string) {
  for (const width of [1440, 1024]) {
    await page.setViewportSize({ width, height: 900 });
    await expect(page.getByRole('main').getByRole('row').nth(1)).toBeVisible();
    await screenshot(page, `${name}-list-${width}`);
    await page
      .getByRole('button', { name: /^(New channel|Neuer Kanal)$/ })
      .first()
      .click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    await screenshot(page, `${name}-dialog-${width}`);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  }
}

test('the page and its dialog in English and German, at 1440 and 1024 wide', async ({ page, request }) => {
  const suffix = uniqueSuffix();
  const admin = (await passwordGrant(request)).access_token;
  const customer = await createCustomer(request, admin, `Alerts ${suffix}`);
  const q = `customerId=${customer.id}`;
  for (const [name, notify] of [
    ['Facility team, Berlin stores', ['facility@example.com', 'night.shift@example.com', 'building.management@example.com']],
    ['Reception', ['reception@example.com']],
  ] as const)
    await api(request, admin, 'POST', `${BASE}?${q}`, { name, comment: 'Weekdays, 7 to 19', channelType: 'EMAIL', notify });
  const english = await createUser(request, admin, customer.id, 'TECHNICIAN', 'Erin', suffix);
  const german = await createUser(request, admin, customer.id, 'TECHNICIAN', 'Greta', suffix, { language: 'de' });

  await signIn(page, english.email, english.password);
  await page.goto('/notification-channels');
  await expect(page.getByRole('heading', { name: 'Notification channels', level: 1 })).toBeVisible();
  await shoot(page, 'notification-channels-en');

  await page.context().clearCookies();
  await signIn(page, german.email, german.password);
  await page.goto('/notification-channels');
  await expect(page.getByRole('heading', { name: 'Benachrichtigungskanäle', level: 1 })).toBeVisible();
  await shoot(page, 'notification-channels-de');
});
