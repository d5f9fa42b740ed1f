import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import {
  api,
  collectConsoleErrors,
  contentChannel,
  createCustomer,
  createUser,
  passwordGrant,
  screenshot,
  signInFromLoginPage,
  uniqueSuffix,
} from './fixtures';

/*
 * Issue 28 items 2 and 5: a screen is edited in place (name, time zone, tags, licence, folder) from its page
 * and from the row menu, and survives a reload; "Add screen" proposes the tenant's default zone; the screen
 * page and the list say what plays now (layer and names), not "Nothing assigned" while channels play.
 */

type Folder = { id: string; name?: string };

// One at a time: each signs in and loads the screens list, which a busy machine serves slowly in parallel.
test.describe.configure({ mode: 'serial' });

async function register(request: APIRequestContext): Promise<string> {
  const reg = await request.post('/public-api/display/register', {
    data: { type: 'SCREEN', platform: 'BROWSER', version: 'e2e-1.0', timeZone: 'UTC' },
  });
  expect(reg.status(), await reg.text()).toBe(201);

  return ((await reg.json()) as { activationCode: string }).activationCode;
}

async function tenant(request: APIRequestContext, label: string) {
  const suffix = uniqueSuffix();
  const admin = (await passwordGrant(request)).access_token;
  // A free licence for the screen licensed "Free: Lite" below (spec 5 §6: FREE draws on them).
  const customer = await createCustomer(request, admin, `${label} ${suffix}`, { freeLicenses: 1 });
  const owner = await createUser(request, admin, customer.id, 'OWNER', 'Olga Owner', suffix);
  const root = (
    await api<{ content: Folder[] }>(
      request,
      admin,
      'GET',
      `/api/v2/deviceGroup?customerId=${customer.id}&search=${encodeURIComponent('parentId=NULL')}`,
    )
  ).content[0]!;

  return { admin, customer, owner, root };
}

/** Signs in like `signIn`, with room for the first sign-in of a fresh server on a busy machine (it renders the overview cold). */
async function signIn(page: Page, email: string, password: string) {
  await page.goto('/login');
  await signInFromLoginPage(page, email, password);
  await expect(page).toHaveURL((url) => url.pathname === '/', { timeout: 30_000 });
}

const facts = (page: Page) => page.getByRole('heading', { name: 'Device' }).locator('..');
const fact = (page: Page, label: string) =>
  facts(page)
    .locator('div', { has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) })
    .locator('dd');

test("a screen is edited in place and keeps it after a reload; Add screen proposes the tenant's zone", async ({ page, request }) => {
  test.setTimeout(420_000);
  const errors = collectConsoleErrors(page);
  const { admin, customer, owner, root } = await tenant(request, 'Screen edit');
  await api(request, admin, 'POST', `/api/deviceGroup/${root.id}?customerId=${customer.id}`, { name: 'Lobby' });
  const code = await register(request);

  // The tenant's default zone, set in Settings.
  await signIn(page, owner.email, owner.password);
  await page.goto('/settings');
  const defaults = page.getByRole('form', { name: 'Screen defaults' });
  await defaults.getByLabel('Default time zone').selectOption('Europe/Berlin');
  await defaults.getByRole('button', { name: 'Save default' }).click();
  await expect(defaults.getByRole('status')).toHaveText('Settings saved.');

  // Add screen proposes it; the pickers offer the server's names (a link such as Asia/Kolkata and Asia/Calcutta both).
  await page.goto('/screens');
  await page.getByRole('button', { name: 'Add screen' }).first().click();
  const add = page.getByRole('dialog', { name: 'Add a screen' });
  await expect(add.getByLabel('Time zone')).toHaveValue('Europe/Berlin');
  for (const zone of ['Asia/Kolkata', 'Asia/Calcutta', 'US/Eastern'])
    await expect(add.getByLabel('Time zone').locator(`option[value="${zone}"]`)).toHaveCount(1);
  await add.getByLabel('Code on the screen').fill(code);
  await add.getByLabel('Name').fill('Lobby left');
  await add.getByRole('button', { name: 'Add screen' }).click();
  await expect(add).toBeHidden();
  const claimed = await api<{ content: { id: string; timeZone: string }[] }>(
    request,
    admin,
    'GET',
    `/api/v2/device?customerId=${customer.id}&search=${encodeURIComponent('name=Lobby left')}`,
  );
  expect(claimed.content[0]!.timeZone).toBe('Europe/Berlin');
  const id = claimed.content[0]!.id;

  // On its page: rename, zone, tags, licence and folder at once.
  await page.goto(`/screens/${id}`);
  await page.getByRole('button', { name: 'Edit screen' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Lobby left' });
  await edit.getByLabel('Name').fill('Lobby entrance');
  await edit.getByLabel('Time zone').selectOption('America/New_York');
  await edit.getByLabel('Licence').selectOption({ label: 'Free: Lite' });
  const tags = edit.getByLabel('Tags');
  await tags.fill('ground-floor');
  await tags.press('Enter');
  await tags.fill('entrance');
  await tags.press('Enter');
  await edit
    .getByTestId('device-folder-Lobby')
    .getByRole('button', { name: /^Lobby/ })
    .click();
  await expect(edit.getByTestId('edit-screen-folder')).toHaveText('Lobby');
  await screenshot(page, 'screen-edit-dialog');
  const moved = page.waitForResponse((res) => res.url().includes('/api/v2/device/move') && res.request().method() === 'POST');
  await edit.getByRole('button', { name: 'Save changes' }).click();
  expect((await moved).status()).toBe(204);
  await expect(edit).toBeHidden();

  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Lobby entrance');
  await expect(fact(page, 'Time zone')).toHaveText('America/New_York');
  await expect(fact(page, 'Licence')).toHaveText('Free: Lite');
  await expect(fact(page, 'Tags')).toHaveText('ground-floor, entrance');
  await expect(fact(page, 'Folder')).toHaveText('Lobby');

  // From the row menu of the list: rename again.
  await page.goto('/screens');
  await expect(page.getByRole('button', { name: 'Actions for Lobby entrance' })).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Actions for Lobby entrance' }).click();
  await page.getByRole('menuitem', { name: 'Edit…' }).click();
  const fromList = page.getByRole('dialog', { name: 'Edit Lobby entrance' });
  await expect(fromList.getByLabel('Time zone')).toHaveValue('America/New_York');
  await fromList.getByLabel('Name').fill('Lobby main');
  await fromList.getByLabel('Licence').selectOption({ label: 'No licence yet' });
  await fromList.getByRole('button', { name: 'Save changes' }).click();
  await expect(fromList).toBeHidden();
  await page.reload();
  await expect(page.getByRole('table')).toContainText('Lobby main', { timeout: 30_000 });
  const after = await api<{ name: string; licenseStatus: string; tags: string[]; timeZone: string }>(
    request,
    admin,
    'GET',
    `/api/v2/device/${id}?customerId=${customer.id}`,
  );
  expect(after).toMatchObject({
    name: 'Lobby main',
    licenseStatus: 'UN_LICENSED',
    tags: ['ground-floor', 'entrance'],
    timeZone: 'America/New_York',
  });
  expect(errors).toEqual([]);
});

test('the screen page and the list show what plays now: two channels by layer and name', async ({ page, request }) => {
  test.setTimeout(420_000);
  const errors = collectConsoleErrors(page);
  const { admin, customer, owner, root } = await tenant(request, 'Plays now');
  const code = await register(request);
  const device = await api<{ id: string }>(request, admin, 'POST', `/api/v2/device/assignToCustomer?customerId=${customer.id}`, {
    activationCode: code,
    deviceName: 'Foyer',
    timeZone: 'Europe/Berlin',
    licenseStatus: 'UN_LICENSED',
  });
  const contentRoot = (
    await api<{ content: Folder[] }>(
      request,
      admin,
      'GET',
      `/api/v2/contentGroup?customerId=${customer.id}&search=${encodeURIComponent('parentId=NULL')}`,
    )
  ).content.find((f) => f.name !== 'Templates')!;
  const loop = await api<{ id: string }>(
    request,
    admin,
    'POST',
    `/api/simpleLoop?customerId=${customer.id}&contentGroupId=${contentRoot.id}`,
    {
      name: 'Welcome loop',
      simpleLoopType: 'NORMAL',
      version: '2.0',
      data: { loopData: { resolution: { width: 1920, height: 1080 } }, slides: [] },
    },
  );
  for (const name of ['Morning news', 'Offers'])
    await api(request, admin, 'POST', `/api/campaign?customerId=${customer.id}`, contentChannel(name, loop.id, root.id));

  await signIn(page, owner.email, owner.password);
  for (const width of [1440, 1024]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/screens/${device.id}`);
    const now = page.getByTestId('plays-now');
    await expect(now).toHaveAttribute('data-layer', 'CHANNELS');
    await expect(now.getByRole('list', { name: 'Channels playing now' })).toHaveText(/Morning news\s*Offers/);
    await expect(now).toContainText('Assigned contentNone');
    await screenshot(page, `screen-plays-now-${width}`);

    await page.goto('/screens');
    const row = page.getByRole('row', { name: /Foyer/ });
    await expect(row).toBeVisible({ timeout: 30_000 });
    await expect(row.getByTestId('now-playing')).toHaveText('Channels: Morning news, Offers');
    await expect(page.getByRole('table')).not.toContainText('Nothing assigned');
    await screenshot(page, `screens-plays-now-${width}`);
  }
  expect(errors).toEqual([]);
});
