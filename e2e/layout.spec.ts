import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import {
  api,
  collectConsoleErrors,
  collectFailedResponses,
  contentChannel,
  createCustomer,
  createUser,
  passwordGrant,
  registerAndClaim,
  rootFolderId,
  screenshot,
  signInFromLoginPage,
  switchTenant,
  uniqueSuffix,
  uploadFile,
} from './fixtures';

/*
 * Issue 28 item 9: the console at 1024 × 768 (and 1440 × 900), sidebar expanded and collapsed. Every list
 * page, with data in it, fits the window (no sideways scroll of the page), keeps its row menu in view, and
 * shows its filters uncut; the sidebar collapses to a rail that a reload keeps and that still navigates.
 */

type ListPage = { name: string; path: string; rowMenu?: boolean };

/** A tenant with something on every list page: files, a playlist, screens in a folder, a channel, a sub-channel group, a datasource, an advertiser, a notification channel, a webhook action and key, a team, users. */
async function seed(request: APIRequestContext) {
  const suffix = uniqueSuffix();
  const token = (await passwordGrant(request)).access_token;
  const customer = await createCustomer(request, token, `Layout ${suffix}`);
  const q = `customerId=${customer.id}`;
  await createUser(request, token, customer.id, 'OWNER', 'Maximiliane Oberbergerhuber-Schwarzenfeld', suffix);
  const member = await createUser(request, token, customer.id, 'EDITOR', 'Tom Member', suffix);
  const team = await api<{ id: string }>(request, token, 'POST', `/api/team?${q}`, { name: `Layout crew ${suffix}` });
  await api(request, token, 'PUT', `/api/team/updateUserAssignments?teamId=${team.id}&${q}`, {
    resourcesToAdd: [{ id: member.id, readOnly: false }],
  });
  const poster = readFileSync(fileURLToPath(new URL('./fixtures/poster.png', import.meta.url)));
  const root = await rootFolderId(request, token, customer.id);
  const file = await uploadFile(
    request,
    token,
    customer.id,
    { name: 'a-rather-long-file-name-for-the-lobby-poster.png', mimeType: 'image/png', buffer: poster },
    { parentId: root, tags: ['lobby', 'winter'], withPreview: true },
  );
  const contentRoot = (
    await api<{ content: { id: string }[] }>(
      request,
      token,
      'GET',
      `/api/v2/contentGroup?${q}&search=${encodeURIComponent('parentId=NULL')}`,
    )
  ).content[0]!.id;
  const loop = await api<{ id: string }>(request, token, 'POST', `/api/simpleLoop?${q}&contentGroupId=${contentRoot}`, {
    name: 'Lobby welcome loop for the winter season',
    simpleLoopType: 'NORMAL',
    version: '2.0',
    data: { loopData: { resolution: { width: 1920, height: 1080 } }, slides: [{ key: 'a', type: 'FILE', id: file.id }] },
  });
  const screensRoot = (
    await api<{ content: { id: string }[] }>(
      request,
      token,
      'GET',
      `/api/v2/deviceGroup?${q}&search=${encodeURIComponent('parentId=NULL')}`,
    )
  ).content[0]!.id;
  const lobby = await api<{ id: string }>(request, token, 'POST', `/api/deviceGroup/${screensRoot}?${q}`, {
    name: 'Lobby and reception',
    type: 'NORMAL',
  });
  const deviceIds = [
    await registerAndClaim(request, token, customer.id, 'Lobby entrance portrait screen'),
    await registerAndClaim(request, token, customer.id, 'Reception desk'),
  ];
  await api(request, token, 'POST', `/api/v2/device/move?${q}`, { deviceIds, targetGroupId: lobby.id });
  await api(request, token, 'POST', `/api/campaign?${q}`, contentChannel('Lobby welcome channel', loop.id, lobby.id));
  await api(request, token, 'POST', `/api/messageGroup?${q}`, { name: 'Lobby news ticker' });
  await api(request, token, 'POST', `/api/adv?${q}`, {
    name: 'Café am Markt',
    comment: 'Morning coffee spots in the lobby',
    enabled: true,
  });
  await api(request, token, 'POST', `/api/datasource?${q}`, {
    name: 'Lobby menu prices for the winter season',
    sourceType: 'INTERNAL',
    structureType: 'KEY_VALUE',
  });
  await api(request, token, 'POST', `/api/alertRuleNotificationChannel?${q}`, {
    name: 'Facility team for the lobby screens',
    comment: 'Weekdays, building management',
    channelType: 'EMAIL',
    notify: ['facility.management@example.com', 'reception.desk@example.com'],
  });
  await api(request, token, 'POST', `/api/webhooks/apikey?${q}`, { name: 'Fire alarm panel in the lobby and reception' });
  await api(request, token, 'POST', `/api/webhookEvent/actions?${q}`, {
    name: 'Fire alarm: emergency content in the lobby',
    eventId: 'fire-alarm-lobby-and-reception',
    action: 'ENABLE_EMERGENCY_ON_DEVICE_GROUP',
    targetData: { targetIds: [lobby.id] },
  });

  return { customer, lobbyId: lobby.id };
}

function listPages(lobbyId: string): ListPage[] {
  return [
    { name: 'media', path: '/media?view=table', rowMenu: false },
    { name: 'media-grid', path: '/media', rowMenu: false },
    { name: 'content', path: '/content?view=table', rowMenu: true },
    { name: 'screens', path: `/screens?view=table&folder=${lobbyId}`, rowMenu: true },
    { name: 'channels', path: '/channels', rowMenu: true },
    { name: 'sub-channels', path: '/sub-channels', rowMenu: true },
    { name: 'datasources', path: '/datasources', rowMenu: true },
    { name: 'schedules', path: `/schedules?folder=${lobbyId}` },
    { name: 'users', path: '/users', rowMenu: true },
    { name: 'teams', path: '/teams', rowMenu: true },
    { name: 'customers', path: '/customers', rowMenu: true },
    { name: 'advertisers', path: '/advertisers', rowMenu: true },
    { name: 'notification-channels', path: '/notification-channels', rowMenu: true },
    { name: 'integrations', path: '/integrations', rowMenu: true },
    { name: 'integrations-keys', path: '/integrations?tab=keys', rowMenu: true },
    { name: 'audit-log', path: '/audit-log' },
    { name: 'proof-of-play', path: '/proof-of-play' },
    { name: 'settings', path: '/settings' },
  ];
}

/** The page does not scroll sideways; the row menus are inside the window; no filter select cuts an option. */
async function expectFits(page: Page, list: ListPage, label: string) {
  const overflow = await page.evaluate(() => {
    const root = document.scrollingElement!;
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth };
  });
  expect(overflow.scrollWidth, `${label}: the page scrolls sideways`).toBeLessThanOrEqual(overflow.clientWidth);

  if (list.rowMenu) {
    const menus = page.getByRole('main').getByRole('button', { name: /^Actions for / });
    await expect(menus.first(), `${label}: a row menu`).toBeVisible();
    const viewport = page.viewportSize()!;
    for (const box of await menus.evaluateAll((buttons) => buttons.map((b) => b.getBoundingClientRect().toJSON() as DOMRect))) {
      expect(box.right, `${label}: a row menu beyond the window's right edge`).toBeLessThanOrEqual(viewport.width);
      expect(box.width, `${label}: a row menu squeezed`).toBeGreaterThan(20);
    }
    // Nothing of the table is scrolled out of its box either.
    const tables = await page
      .getByRole('main')
      .locator('table')
      .evaluateAll((ts) => ts.map((t) => ({ scroll: t.parentElement!.scrollWidth, client: t.parentElement!.clientWidth })));
    for (const t of tables) expect(t.scroll, `${label}: a table wider than its box`).toBeLessThanOrEqual(t.client + 1);
  }

  const selects = await page
    .getByRole('main')
    .locator('select')
    .evaluateAll((elements) => {
      const context = document.createElement('canvas').getContext('2d')!;
      return (elements as HTMLSelectElement[])
        .filter((s) => s.offsetParent !== null)
        .map((s) => {
          const style = getComputedStyle(s);
          context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
          const longest = Math.max(...[...s.options].map((o) => context.measureText(o.text).width));
          const room = s.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
          return {
            name: s.getAttribute('aria-label') ?? s.id,
            scrollWidth: s.scrollWidth,
            clientWidth: s.clientWidth,
            longest: Math.ceil(longest),
            room: Math.floor(room),
          };
        });
    });
  for (const s of selects) {
    expect(s.scrollWidth, `${label}: select ${s.name} scrolls`).toBeLessThanOrEqual(s.clientWidth);
    expect(s.longest, `${label}: select ${s.name} cuts its longest option`).toBeLessThanOrEqual(s.room + 1);
  }
}

/** Signs the admin in; the first page after the login can take long on a busy machine. */
async function signIn(page: Page) {
  await page.goto('/login');
  await signInFromLoginPage(page);
  await expect(page).toHaveURL((url) => url.pathname === '/', { timeout: 30_000 });
}

async function visit(page: Page, list: ListPage) {
  await page.goto(list.path);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.waitForLoadState('networkidle');
  // Rows, not the skeleton: a busy machine can take a while to answer the first list.
  if (list.rowMenu)
    await expect(
      page
        .getByRole('main')
        .getByRole('button', { name: /^Actions for / })
        .first(),
    ).toBeVisible({ timeout: 30_000 });
}

/**
 * Every list page, loaded once at 1024 × 768 with the sidebar expanded, then with it collapsed to the rail (the
 * button), then at 1440 × 900 expanded: the window resized around a loaded page, as a user does, at a third of the
 * cost of three loads. Widths only grow along the way (768, 960, 1184 px beside the sidebar); each check is retried
 * until the layout has followed the resize.
 */
async function tour(page: Page, lobbyId: string) {
  const errors = collectConsoleErrors(page);
  // The list pages' share of the console tour (hydration.spec.ts): no failed request either.
  const failed = collectFailedResponses(page);
  const sidebar = page.locator('[data-sidebar]');
  for (const list of listPages(lobbyId)) {
    await page.setViewportSize({ width: 1024, height: 768 });
    await visit(page, list);
    for (const [width, height, collapsed] of [
      [1024, 768, false],
      [1024, 768, true],
      [1440, 900, false],
    ] as const) {
      if (collapsed) await page.getByRole('button', { name: 'Collapse sidebar' }).click();
      else if ((await sidebar.getAttribute('data-sidebar')) === 'collapsed')
        await page.getByRole('button', { name: 'Expand sidebar' }).click();
      await expect(sidebar).toHaveAttribute('data-sidebar', collapsed ? 'collapsed' : 'expanded');
      await page.setViewportSize({ width, height });
      const label = `${list.name} at ${width}, sidebar ${collapsed ? 'collapsed' : 'expanded'}`;
      await expect(async () => expectFits(page, list, label)).toPass({ timeout: 15_000 });
      await screenshot(page, `layout-${width}-${collapsed ? 'rail' : 'sidebar'}-${list.name}`);
    }
    expect(errors, `${list.name}: console errors`).toEqual([]);
    expect(failed, `${list.name}: failed requests`).toEqual([]);
  }
}

test.describe('1024 × 768', () => {
  // One seeded tenant, one worker: the tests run in order and leave the machine's other core alone.
  test.describe.configure({ mode: 'default' });
  let seeded: Awaited<ReturnType<typeof seed>>;
  test.beforeAll(async ({ request }) => {
    seeded = await seed(request);
  });

  test('every list page fits 1024 and 1440 wide, sidebar expanded and collapsed', async ({ browser }) => {
    test.setTimeout(600_000);
    const context = await browser.newContext({ viewport: { width: 1024, height: 768 } });
    const page = await context.newPage();
    await signIn(page);
    await switchTenant(page, seeded.customer.name);
    await tour(page, seeded.lobbyId);
    await context.close();
  });

  test('a narrow table lists the values of the columns it hides under the row name', async ({ browser }) => {
    test.setTimeout(300_000);
    const context = await browser.newContext({ viewport: { width: 1024, height: 768 } });
    const page = await context.newPage();
    await signIn(page);
    await switchTenant(page, seeded.customer.name);
    await visit(page, { name: 'screens', path: `/screens?view=table&folder=${seeded.lobbyId}`, rowMenu: true });
    const table = page.getByRole('main').locator('table');
    const headers = table.locator('thead th');
    // At 1024 beside the folder tree the screens table gives way: "Last activity" goes under the name.
    await expect(headers.filter({ hasText: 'Last activity' })).toHaveCount(0);
    const row = table.getByRole('row').filter({ hasText: 'Reception desk' });
    await expect(row.getByTestId('hidden-columns')).toContainText('Last activity:');
    await expect(row.getByTestId('hidden-columns')).toContainText('Folder:');
    await expect(row.getByRole('button', { name: 'Actions for Reception desk' })).toBeInViewport();

    // Wider, they come back as columns.
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.getByRole('button', { name: 'Collapse sidebar' }).click();
    await expect(headers.filter({ hasText: 'Last activity' })).toHaveCount(1);
    await expect(row.getByTestId('hidden-columns')).not.toContainText('Last activity');
    await context.close();
  });

  test('the sidebar collapses to a rail, stays so after a reload, and still navigates', async ({ browser }) => {
    test.setTimeout(300_000);
    const context = await browser.newContext({ viewport: { width: 1024, height: 768 } });
    const page = await context.newPage();
    await signIn(page);
    await switchTenant(page, seeded.customer.name);
    await visit(page, { name: 'users', path: '/users', rowMenu: true });
    const sidebar = page.locator('#sidebar');
    const nav = page.getByRole('navigation', { name: 'Main' });
    const screensLink = nav.getByRole('link', { name: 'Screens' });
    const tooltip = screensLink.locator('[aria-hidden="true"]', { hasText: 'Screens' });
    expect((await sidebar.boundingBox())!.width).toBe(256);
    expect((await screensLink.boundingBox())!.width).toBeGreaterThan(150);

    // With the keyboard: the toggle is a button that says what it does and whether the sidebar is expanded.
    const collapse = page.getByRole('button', { name: 'Collapse sidebar' });
    await expect(collapse).toHaveAttribute('aria-expanded', 'true');
    await collapse.focus();
    await page.keyboard.press('Enter');
    const expand = page.getByRole('button', { name: 'Expand sidebar' });
    await expect(expand).toHaveAttribute('aria-expanded', 'false');
    await expect.poll(async () => (await sidebar.boundingBox())!.width).toBe(64);
    // The labels leave the rail but stay the links' names, and show beside an icon on hover and focus.
    await expect(screensLink).toBeVisible();
    expect((await screensLink.boundingBox())!.width).toBeLessThanOrEqual(48);
    await expect(tooltip).toBeHidden();
    await screensLink.hover();
    await expect(tooltip).toBeVisible();
    await screenshot(page, 'layout-rail-tooltip');
    await page.mouse.move(600, 400);
    await expect(tooltip).toBeHidden();
    // Tab from Screens to the next entry: its label shows while it has the keyboard focus.
    await screensLink.focus();
    await page.keyboard.press('Tab');
    const next = nav.getByRole('link', { name: 'Advertisers' });
    await expect(next).toBeFocused();
    await expect(next.locator('[aria-hidden="true"]', { hasText: 'Advertisers' })).toBeVisible();
    await expectFits(page, { name: 'users', path: '/users', rowMenu: true }, 'users with the rail');

    await page.reload();
    await expect(page.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Expand sidebar' })).toBeVisible();
    expect((await sidebar.boundingBox())!.width).toBe(64);

    await screensLink.click();
    await expect(page).toHaveURL((url) => url.pathname === '/screens');
    await expect(page.getByRole('heading', { name: 'Screens', level: 1 })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Screens' })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('button', { name: 'Expand sidebar' })).toBeVisible();

    await page.getByRole('button', { name: 'Expand sidebar' }).click();
    await expect.poll(async () => (await sidebar.boundingBox())!.width).toBe(256);
    await page.reload();
    await expect(page.getByRole('button', { name: 'Collapse sidebar' })).toBeVisible();
    await context.close();
  });
});
