import { expect, test, type Page } from '@playwright/test';
import {
  api,
  collectConsoleErrors,
  createCustomer,
  createUser,
  passwordGrant,
  registerAndClaim,
  screenshot,
  screenshotAtBothWidths,
  signIn,
  uniqueSuffix,
} from './fixtures';

/*
 * The Screens console (issue: Screens): the folder tree with online/offline counts and a video-wall folder,
 * the grid, a batch command behind a confirmation naming how many screens, and screens dragged into the video
 * wall (which refuses a folder). Registration is rate-limited per address (30 an hour): three devices only.
 */

type Folder = { id: string; name?: string };

const cardNames = (page: Page) =>
  page.getByTestId('screen-card').evaluateAll((cards) => cards.map((c) => c.getAttribute('aria-label')).sort());

test('screens: folder tree with counts, grid, a confirmed batch command, drag into a video wall', async ({ page, request }) => {
  test.setTimeout(120_000);
  const errors = collectConsoleErrors(page);
  const suffix = uniqueSuffix();
  const admin = (await passwordGrant(request)).access_token;
  const customer = await createCustomer(request, admin, `Screens ${suffix}`);
  const tech = await createUser(request, admin, customer.id, 'TECHNICIAN', 'Tess Technician', suffix);
  const root = (
    await api<{ content: Folder[] }>(
      request,
      admin,
      'GET',
      `/api/v2/deviceGroup?customerId=${customer.id}&search=${encodeURIComponent('parentId=NULL')}`,
    )
  ).content[0]!;
  await api(request, admin, 'POST', `/api/deviceGroup/${root.id}?customerId=${customer.id}`, { name: 'Lobby' });
  const wall = await api<Folder>(request, admin, 'POST', `/api/deviceGroup/${root.id}?customerId=${customer.id}`, {
    name: 'Wall',
    type: 'VIDEO_WALL',
  });
  for (const name of ['Alpha', 'Bravo', 'Charlie']) await registerAndClaim(request, admin, customer.id, name);

  await signIn(page, tech.email, tech.password);
  await page.goto('/screens');
  const tree = page.getByRole('navigation', { name: 'Screen folders' });
  await expect(tree.getByRole('tree')).toBeVisible();
  await expect(tree.getByTestId('device-folder-All screens')).toContainText('0 online, 3 offline');
  await expect(tree.getByTestId('device-folder-Wall')).toContainText('Video wall');
  await expect(page.getByRole('table')).toContainText('Alpha');

  // The grid, chosen in the URL.
  await page.getByRole('group', { name: 'View' }).getByRole('button', { name: 'Grid' }).click();
  await expect(page).toHaveURL(/view=grid/);
  await expect.poll(() => cardNames(page)).toEqual(['Alpha', 'Bravo', 'Charlie']);
  await expect(page.getByTestId('screen-preview-placeholder').first()).toBeVisible();

  // Two selected: the restart asks first, naming how many.
  await page.getByLabel('Select Alpha').check({ force: true });
  await page.getByLabel('Select Bravo').check({ force: true });
  await expect(page.getByTestId('selection-count')).toHaveText('2 screens selected');
  await page.getByRole('toolbar', { name: 'Selected screens' }).getByRole('button', { name: 'Restart' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Restart 2 screens?' });
  await expect(confirm).toBeVisible();
  await screenshot(page, 'screens-batch-confirm');
  await confirm.getByRole('button', { name: 'Restart: 2 screens' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Restart: sent to 2 screens.' })).toBeVisible();

  // Dragged onto the video wall in the tree: both move there; the counts follow.
  await page.getByTestId('screen-card').filter({ hasText: 'Alpha' }).dragTo(tree.getByTestId('device-folder-Wall'));
  await expect(page.getByRole('status').filter({ hasText: 'Moved 2 screens to Wall.' })).toBeVisible();
  await expect(tree.getByTestId('device-folder-Wall')).toContainText('0 online, 2 offline');
  const inWall = await api<{ content: { name: string }[] }>(
    request,
    admin,
    'GET',
    `/api/v2/device?customerId=${customer.id}&search=${encodeURIComponent(`deviceGroupId=${wall.id}`)}&sort=name,asc`,
  );
  expect(inWall.content.map((d) => d.name)).toEqual(['Alpha', 'Bravo']);

  // A folder dropped on the video wall is refused, saying why.
  await tree.getByTestId('device-folder-Lobby').dragTo(tree.getByTestId('device-folder-Wall'));
  await expect(page.getByRole('alert').filter({ hasText: 'Wall is a video wall: it holds screens, not folders.' })).toBeVisible();

  // The video wall's own list.
  await tree
    .getByTestId('device-folder-Wall')
    .getByRole('button', { name: /^Video wall: Wall/ })
    .click();
  await expect(page.getByTestId('screens-folder-title')).toContainText('Wall');
  await expect(page.getByTestId('screens-folder-title')).toContainText('Video wall');
  await expect.poll(() => cardNames(page)).toEqual(['Alpha', 'Bravo']);
  await screenshot(page, 'screens-video-wall');
  expect(errors).toEqual([]);
});

test('open alerts: a rule leaving one screen out, the alert on the overview, a badge on the screen and counts on its folders', async ({
  page,
  request,
}) => {
  // The screen must be offline for the rule's one minute before an evaluation finds it: the test waits for that state.
  test.setTimeout(360_000);
  const errors = collectConsoleErrors(page);
  const suffix = uniqueSuffix();
  const admin = (await passwordGrant(request)).access_token;
  const customer = await createCustomer(request, admin, `Screen alerts ${suffix}`);
  const q = `customerId=${customer.id}`;
  const tech = await createUser(request, admin, customer.id, 'TECHNICIAN', 'Tariq Technician', suffix);
  const root = (
    await api<{ content: Folder[] }>(request, admin, 'GET', `/api/v2/deviceGroup?${q}&search=${encodeURIComponent('parentId=NULL')}`)
  ).content[0]!;
  const lobby = await api<Folder>(request, admin, 'POST', `/api/deviceGroup/${root.id}?${q}`, { name: 'Lobby' });
  // Screens that never connect: offline from their claim on.
  const watched = await registerAndClaim(request, admin, customer.id, 'Lobby display');
  const spare = await registerAndClaim(request, admin, customer.id, 'Spare display');
  await api(request, admin, 'POST', `/api/v2/device/move?${q}`, { deviceIds: [watched, spare], targetGroupId: lobby.id });

  // Nothing open yet: the overview says all is well.
  await signIn(page, tech.email, tech.password);
  await expect(page.getByTestId('overview-alerts')).toHaveText('All is well: no alert is open.');
  await screenshotAtBothWidths(page, 'overview-no-alerts');

  // A rule on Lobby that leaves the spare screen out, picked in the form.
  await page.goto('/alert-rules');
  await page.getByRole('button', { name: 'New alert rule' }).first().click();
  const create = page.getByRole('dialog', { name: 'New alert rule' });
  await create.getByLabel('Name').fill('Lobby dark');
  await create.getByLabel('Offline for at least').fill('1');
  await create.getByTestId('device-folder-Lobby').first().getByRole('button', { name: 'Lobby', exact: true }).click();
  await create.getByText('Leave screens out').click();
  const leftOut = create.getByTestId('alert-rule-excluded-screens');
  await leftOut.getByRole('checkbox', { name: 'Spare display' }).check();
  await expect(leftOut.getByRole('list', { name: 'Chosen: Screens left out' })).toContainText('Spare display');
  await create.getByLabel('Sat', { exact: true }).check();
  await create.getByLabel('Sun', { exact: true }).check();
  await create.getByLabel('All day').check();
  await create.getByLabel('Check every').fill('1');
  await create.getByTestId('alert-rule-excluded-screens').scrollIntoViewIfNeeded();
  await screenshot(page, 'alert-rule-excluded-screens-1440');
  await page.setViewportSize({ width: 1024, height: 768 });
  await screenshot(page, 'alert-rule-excluded-screens-1024');
  await page.setViewportSize({ width: 1440, height: 900 });
  await create.getByRole('button', { name: 'Create rule' }).click();
  await expect(create).toBeHidden();
  const rules = await api<{ content: { condition: { excludeDeviceIds: string[] } }[] }>(request, admin, 'GET', `/api/alertRule?${q}`);
  expect(rules.content.map((r) => r.condition.excludeDeviceIds)).toEqual([[spare]]);

  // After a minute offline an evaluation opens the watched screen's alert, and none for the spare one.
  await expect
    .poll(async () => (await api<{ totalElements: number }>(request, admin, 'GET', `/api/alert/device?${q}&state=OPEN`)).totalElements, {
      timeout: 180_000,
      intervals: [2_000],
    })
    .toBe(1);

  await page.goto('/');
  const overview = page.getByTestId('overview-alerts');
  await expect(overview).toContainText('1 alert is open');
  const item = overview.getByRole('list', { name: 'Newest open alerts' }).getByRole('listitem');
  await expect(item).toHaveCount(1);
  await expect(item).toContainText('Lobby dark');
  await expect(item.getByRole('link', { name: 'Lobby display' })).toHaveAttribute('href', `/screens/${watched}`);
  await expect(item.locator('time')).toHaveAttribute('title', /\d/);
  await screenshotAtBothWidths(page, 'overview-open-alerts');
  await expect(page.getByRole('link', { name: 'All alerts' })).toHaveAttribute('href', '/alerts?state=OPEN');

  // The screens list: a badge naming the rule on the watched screen only, the count on its folders.
  await page.goto('/screens');
  const rows = page.getByRole('main').getByRole('row');
  const badge = rows.filter({ hasText: 'Lobby display' }).getByTestId('screen-alert-badge');
  await expect(badge).toContainText('Alert');
  await expect(badge).toHaveAttribute('title', /Lobby dark, since /);
  await expect(rows.filter({ hasText: 'Spare display' }).getByTestId('screen-alert-badge')).toHaveCount(0);
  const tree = page.getByRole('navigation', { name: 'Screen folders' });
  await expect(tree.getByTestId('device-folder-All screens').getByTestId('folder-alerts').first()).toHaveText(
    '1 open alert in and below this folder1',
  );
  await expect(tree.getByTestId('device-folder-Lobby').getByTestId('folder-alerts')).toContainText('1');
  await expect(page.getByTestId('screens-folder-alerts')).toHaveText('1 open alert');
  await screenshotAtBothWidths(page, 'screens-open-alerts');
  await page.getByRole('group', { name: 'View' }).getByRole('button', { name: 'Grid' }).click();
  await expect(page.getByTestId('screen-card').filter({ hasText: 'Lobby display' }).getByTestId('screen-alert-badge')).toBeVisible();
  await screenshot(page, 'screens-open-alerts-grid-1440');
  expect(errors).toEqual([]);
});
