import { expect, test } from '@playwright/test';
import {
  api,
  collectConsoleErrors,
  contentChannel,
  createCustomer,
  createUser,
  passwordGrant,
  rootGroupId,
  screenshot,
  signIn,
  uniqueSuffix,
} from './fixtures';
import { startSimulator } from './simulator';

/*
 * The signage loop's first half with a real player: the command-line simulator (scripts/display-sim.mjs)
 * registers and shows a code, a technician adds the screen by that code in the console, sees it online,
 * sends a command the player acknowledges over its WebSocket, and moves it into a video-wall folder.
 */

test('a simulated screen is added by its code, comes online, acknowledges a command and moves into a video wall', async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const errors = collectConsoleErrors(page);
  const suffix = uniqueSuffix();
  const admin = await passwordGrant(request);
  const customer = await createCustomer(request, admin.access_token, `Pairing ${suffix}`);
  const tech = await createUser(request, admin.access_token, customer.id, 'OWNER', 'Pairing Owner', suffix);
  const sim = startSimulator(baseURL!);
  try {
    await expect.poll(() => sim.code(), { timeout: 20_000, message: sim.output() }).toMatch(/^\d{4}$/);
    // The player holds its WebSocket before it is claimed (it hears `assigned` on it).
    await expect.poll(() => sim.output(), { timeout: 20_000 }).toContain('connected (manifest ETag');

    await signIn(page, tech.email, tech.password);
    // The dialog opened before the tenant's root folder has loaded takes that folder once it arrives.
    let releaseRoot!: () => void;
    const rootHeld = new Promise<void>((resolve) => (releaseRoot = resolve));
    const isRootRead = (url: URL) => url.pathname === '/api/v2/deviceGroup' && (url.searchParams.get('search') ?? '').includes('parentId');
    await page.route(isRootRead, async (route) => {
      await rootHeld;
      await route.continue();
    });
    await page.goto('/screens');
    await page.getByRole('button', { name: 'Add screen' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add a screen' });
    await expect(dialog.getByTestId('add-screen-folder')).toHaveText('');
    await dialog.getByLabel('Code on the screen').fill('0000' === sim.code() ? '9999' : '0000');
    await dialog.getByLabel('Name').fill('Lobby left');
    releaseRoot();
    await expect(dialog.getByTestId('add-screen-folder')).toHaveText('All screens');
    await page.unroute(isRootRead);
    await dialog.getByRole('button', { name: 'Add screen' }).click();
    // A wrong code says what went wrong and keeps the dialog open.
    await expect(dialog.getByText(/No screen shows this code/)).toBeVisible();
    await dialog.getByLabel('Code on the screen').fill(sim.code()!);
    // The claim's answer, so a failure says whether the click was lost (no request) or what the server answered.
    const claimed = page.waitForResponse((res) => res.url().includes('/api/v2/device/assignToCustomer'), { timeout: 20_000 });
    await dialog.getByRole('button', { name: 'Add screen' }).click();
    const claim = await claimed;
    expect(claim.status(), await claim.text()).toBe(200);

    await expect(page).toHaveURL(/\/screens\/[0-9a-f-]{36}$/);
    await expect(page.getByRole('heading', { name: 'Lobby left' })).toBeVisible();
    await expect.poll(() => sim.output(), { timeout: 20_000 }).toContain('claimed by a tenant');
    // Live: the status shows Online without a reload.
    await expect(page.getByText('Online').first()).toBeVisible({ timeout: 20_000 });

    await page.getByRole('button', { name: 'Restart' }).click();
    // A restart interrupts the screen: it asks first, naming the screen.
    await page
      .getByRole('alertdialog', { name: /^Restart .+\?$/ })
      .getByRole('button', { name: 'Restart' })
      .click();
    const history = page.getByRole('list', { name: 'Recent commands' });
    await expect(history.getByRole('listitem').filter({ hasText: 'restart' })).toContainText('Done', { timeout: 20_000 });
    await expect.poll(() => sim.output()).toContain('command restart');
    // What it plays, resolved as the screen resolves it: nothing is assigned yet.
    await expect(page.getByRole('list', { name: 'Segments' })).toContainText('Nothing to play');

    // An approver's channel for every screen plays; a switched-off one says why it does not.
    const owner = await passwordGrant(request, tech.email, tech.password);
    const contentRoot = await rootGroupId(request, owner.access_token, 'contentGroup');
    const screensRoot = await rootGroupId(request, owner.access_token, 'deviceGroup');
    const loop = await api<{ id: string }>(request, owner.access_token, 'POST', `/api/simpleLoop?contentGroupId=${contentRoot}`, {
      name: 'Welcome loop',
      simpleLoopType: 'NORMAL',
      version: '2.0',
      data: { loopData: { resolution: { width: 1920, height: 1080 } }, slides: [] },
    });
    await api(request, owner.access_token, 'POST', '/api/campaign', contentChannel('Lobby channel', loop.id, screensRoot));
    await api(request, owner.access_token, 'POST', '/api/campaign', contentChannel('Night channel', loop.id, screensRoot, false));
    await page.reload();
    await expect(page.getByRole('list', { name: 'Segments' })).toContainText('Lobby channel');
    const explained = page.getByRole('list', { name: 'Channels and schedules' });
    await expect(explained.getByRole('listitem').filter({ hasText: 'Lobby channel' })).toContainText('Plays');
    await expect(explained.getByRole('listitem').filter({ hasText: 'Night channel' })).toContainText(/switched off/i);
    await screenshot(page, 'screen-detail-live');

    // Into a video-wall folder (created through the API), by dragging its card onto the folder tree.
    const folders = await api<{ content: { id: string }[] }>(
      request,
      admin.access_token,
      'GET',
      `/api/v2/deviceGroup?customerId=${customer.id}&search=${encodeURIComponent('parentId=NULL')}`,
    );
    await api(request, admin.access_token, 'POST', `/api/deviceGroup/${folders.content[0]!.id}?customerId=${customer.id}`, {
      name: 'Video wall',
      type: 'VIDEO_WALL',
    });
    await page.goto('/screens');
    const tree = page.getByRole('navigation', { name: 'Screen folders' });
    await page.getByRole('group', { name: 'View' }).getByRole('button', { name: 'Grid' }).click();
    await page.getByTestId('screen-card').filter({ hasText: 'Lobby left' }).dragTo(tree.getByTestId('device-folder-Video wall'));
    await expect(tree.getByTestId('device-folder-Video wall')).toContainText('1 online, 0 offline');
    await screenshot(page, 'screens-video-wall');
    // The one failed request is the wrong code's 404 above.
    expect(errors.filter((e) => !e.includes('status of 404'))).toEqual([]);
  } finally {
    sim.stop();
  }
});
