import { expect, test, type Page } from '@playwright/test';
import {
  api,
  collectConsoleErrors,
  createCustomer,
  createUser,
  passwordGrant,
  registerAndClaim,
  screenshot,
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
