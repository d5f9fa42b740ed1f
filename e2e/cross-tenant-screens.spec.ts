import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import {
  admin as adminUser,
  api,
  collectConsoleErrors,
  createCustomer,
  createUser,
  expectOnlyOption,
  passwordGrant,
  registerAndClaim,
  screenshot,
  signInFromLoginPage,
  switchTenant,
  uniqueSuffix,
} from './fixtures';
import { startSimulator } from './simulator';

/*
 * Issue 28 item 10: the screens of several tenants in one list. The super administrator under "All tenants"
 * filters the offline screens across two tenants and opens one in its tenant; a network owner under its whole
 * network sees its members' screens only, and its overview counts across them. Pages of one tenant (proof of
 * play) offer the tenant picker in place. Registration is rate-limited per address: four screens only.
 */

async function claim(
  request: APIRequestContext,
  token: string,
  customerId: number,
  activationCode: string,
  deviceName: string,
): Promise<string> {
  const device = await api<{ id: string }>(request, token, 'POST', `/api/v2/device/assignToCustomer?customerId=${customerId}`, {
    activationCode,
    deviceName,
    timeZone: 'UTC',
    licenseStatus: 'UN_LICENSED',
  });

  return device.id;
}

/** Signs in from the login page; the first overview after it can take long on a busy machine. */
async function signIn(page: Page, email = adminUser.email, password = adminUser.password) {
  await page.goto('/login');
  await signInFromLoginPage(page, email, password);
  await expect(page).toHaveURL((url) => url.pathname === '/', { timeout: 60_000 });
}

/** The names in the screens table, in the order shown. */
const rowNames = (page: Page) => page.getByRole('table').getByRole('row').locator('td a').allTextContents();

test("screens across tenants: the super administrator filters offline screens of two tenants and opens one; a network owner sees its members' screens and counts", async ({
  page,
  browser,
  request,
  baseURL,
}) => {
  // Four screens, a simulated player, two sign-ins: on a busy shared machine the whole tour passed three minutes.
  test.setTimeout(360_000);
  const errors = collectConsoleErrors(page);
  const s = uniqueSuffix();
  const admin = (await passwordGrant(request)).access_token;
  const alpha = await createCustomer(request, admin, `Alpha ${s}`);
  const bravo = await createCustomer(request, admin, `Bravo ${s}`);
  const network = await createCustomer(request, admin, `Network ${s}`);
  const member = await createCustomer(request, admin, `Member ${s}`);
  await api(request, admin, 'POST', `/api/customer/${network.id}/promoteAsSubreseller`);
  await api(request, admin, 'PUT', `/api/customer/${member.id}/moveToSubreseller?subresellerId=${network.id}`);
  const networkOwner = await createUser(request, admin, network.id, 'OWNER', 'Nora Network', s);

  await registerAndClaim(request, admin, alpha.id, `Lobby ${s}`);
  const door = await registerAndClaim(request, admin, bravo.id, `Door ${s}`);
  await registerAndClaim(request, admin, member.id, `Till ${s}`);
  // One screen of Alpha online: a simulated player, claimed by its code.
  const sim = startSimulator(baseURL!);
  try {
    await expect.poll(() => sim.code(), { timeout: 30_000 }).toMatch(/^\d{4}$/);
    const online = await claim(request, admin, alpha.id, sim.code()!, `Window ${s}`);
    await expect
      .poll(
        async () =>
          (
            await api<{ deviceStatus: string }>(
              request,
              admin,
              'GET',
              `/api/v2/device/${online}?customerId=${alpha.id}&select=deviceStatus`,
            )
          ).deviceStatus,
        { timeout: 60_000 },
      )
      .toBe('ONLINE');

    // The super administrator, under "All tenants": one list with a tenant column.
    await signIn(page);
    await switchTenant(page, null);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Screens' }).click();
    await expect(page.getByRole('heading', { name: 'Screens', level: 1 })).toBeVisible();
    await expect(page.getByText('Every screen of all tenants, with its tenant')).toBeVisible();
    await page.getByRole('searchbox', { name: 'Search screens by name' }).fill(s);
    await expect.poll(() => rowNames(page)).toEqual([`Door ${s}`, `Lobby ${s}`, `Till ${s}`, `Window ${s}`]);
    // Offline screens across my customers: the status filter, in the URL.
    await page.getByLabel('Status').selectOption('offline');
    await expect(page).toHaveURL(/status=offline/);
    await expect.poll(() => rowNames(page)).toEqual([`Door ${s}`, `Lobby ${s}`, `Till ${s}`]);
    await expect(
      page
        .getByRole('row')
        .filter({ hasText: `Door ${s}` })
        .getByTestId('screen-tenant'),
    ).toHaveText(bravo.name);
    await expect(
      page
        .getByRole('row')
        .filter({ hasText: `Till ${s}` })
        .getByTestId('screen-tenant'),
    ).toHaveText(member.name);
    // Sorted by tenant in the API (Alpha, Bravo, Member), in the direction the header shows.
    const tenantHeader = page.getByRole('columnheader', { name: /Tenant/ });
    await tenantHeader.getByRole('button').click();
    await expect(page).toHaveURL(/sort=customer\.name/);
    await expect(tenantHeader).toHaveAttribute('aria-sort', /ascending|descending/);
    const byTenant = [`Lobby ${s}`, `Door ${s}`, `Till ${s}`];
    const direction = await tenantHeader.getAttribute('aria-sort');
    await expect.poll(() => rowNames(page)).toEqual(direction === 'ascending' ? byTenant : [...byTenant].reverse());
    await page.setViewportSize({ width: 1440, height: 900 });
    await screenshot(page, 'cross-tenant-screens-admin-1440');
    await page.setViewportSize({ width: 1024, height: 768 });
    await screenshot(page, 'cross-tenant-screens-admin-1024');
    await page.setViewportSize({ width: 1280, height: 720 });

    // A row opens the screen in its tenant.
    await page.getByRole('link', { name: `Door ${s}` }).click();
    await expect(page).toHaveURL(new RegExp(`/screens/${door}$`));
    await expect(page.getByTestId('current-tenant')).toHaveText(bravo.name);
    await expect(page.getByRole('heading', { name: `Door ${s}`, level: 1 })).toBeVisible();

    // Proof of play is one tenant's: under "All tenants" the page offers the tenants in place.
    await switchTenant(page, null);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Proof of play' }).click();
    const choose = page.getByTestId('choose-tenant');
    await expect(choose).toContainText('Plays belong to one tenant');
    await page.getByRole('combobox', { name: 'Search tenants' }).fill(`Alpha ${s}`);
    await expectOnlyOption(page.getByRole('option'), `Alpha ${s}`);
    await screenshot(page, 'cross-tenant-proof-of-play-choose');
    await page.getByRole('option', { name: new RegExp(`Alpha ${s}`) }).click();
    await expect(page.getByTestId('current-tenant')).toHaveText(alpha.name);
    await expect(choose).toBeHidden();

    // The overview under "All tenants" counts screens and storage across every tenant.
    await switchTenant(page, null);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Overview' }).click();
    await expect(page.getByTestId('overview-screens')).toContainText('Across all tenants.');
    await expect(page.getByTestId('overview-storage')).toContainText('Summed across all tenants.');
    await expect(page.getByTestId('overview-media-choose-tenant')).toBeVisible();
    await page.setViewportSize({ width: 1440, height: 900 });
    await screenshot(page, 'cross-tenant-overview-admin-1440');
    await page.setViewportSize({ width: 1280, height: 720 });
    expect(errors).toEqual([]);

    // The network's OWNER, under its whole network: its member's screen, never Alpha's or Bravo's.
    const ownerContext = await browser.newContext();
    const ownerPage = await ownerContext.newPage();
    const ownerErrors = collectConsoleErrors(ownerPage);
    await signIn(ownerPage, networkOwner.email, networkOwner.password);
    await expect(ownerPage.getByTestId('current-tenant')).toHaveText('Whole network');
    await expect(ownerPage.getByTestId('overview-screens')).toContainText('0 of 1 online');
    await expect(ownerPage.getByTestId('overview-screens')).toContainText('Across your network.');
    await expect(ownerPage.getByTestId('overview-attention')).toContainText(`Till ${s} · ${member.name}`);
    await ownerPage.setViewportSize({ width: 1024, height: 768 });
    await screenshot(ownerPage, 'cross-tenant-overview-network-1024');
    await ownerPage.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Screens' }).click();
    await expect(ownerPage.getByText('Every screen of your network, with its tenant')).toBeVisible();
    await expect.poll(() => rowNames(ownerPage)).toEqual([`Till ${s}`]);
    await expect(ownerPage.getByTestId('screen-tenant')).toHaveText(member.name);
    await screenshot(ownerPage, 'cross-tenant-screens-network-1024');
    expect(ownerErrors).toEqual([]);
    await ownerContext.close();
  } finally {
    sim.stop();
  }
});
