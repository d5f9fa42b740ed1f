import { expect, test } from '@playwright/test';
import {
  admin,
  collectConsoleErrors,
  createCustomer,
  expectOnlyOption,
  passwordGrant,
  screenshot,
  sessionTokens,
  signIn,
  signInFromLoginPage,
  tokenGrant,
} from './fixtures';

test('a wrong password is refused with a clear message', async ({ page }) => {
  const errors = collectConsoleErrors(page);
  await page.goto('/');
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByRole('heading', { name: 'Sign in to Signage Console' })).toBeVisible();

  await page.getByLabel('E-mail').fill(admin.email);
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in' }).click();

  // Next's route announcer is an alert too, so pick ours by its text.
  await expect(page.getByRole('alert').filter({ hasText: 'password is not correct' })).toHaveText(
    'The e-mail address or password is not correct.',
  );
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeEnabled();
  await screenshot(page, 'login-error');
  expect(errors.filter((e) => !/401|Failed to load resource/.test(e))).toEqual([]);
});

test('the login page validates the form before asking the server', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Enter a valid e-mail address')).toBeVisible();
  await expect(page.getByText('Enter your password')).toBeVisible();
});

test('sign in, switch tenant, sign out', async ({ page, context, request }) => {
  const errors = collectConsoleErrors(page);

  // Deep link: the login page sends the user back to where they were going.
  await page.goto('/users');
  await expect(page).toHaveURL(/\/login\?callbackUrl=%2Fusers/);
  await screenshot(page, 'login');
  await page.getByLabel('E-mail').fill(admin.email);
  await page.getByLabel('Password').fill(admin.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL((url) => url.pathname === '/users');
  await expect(page.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible();
  const adminRow = page.getByRole('row').filter({ hasText: admin.email });
  await expect(adminRow).toBeVisible();
  // Across all tenants each user shows its tenant's name.
  await expect(adminRow.getByRole('cell').nth(3)).not.toHaveText(/^#?\d*$/);
  await screenshot(page, 'users-all-tenants');

  // The shell: navigation with only real pages, the user and the role.
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link')).toHaveText([
    'Overview',
    'Media',
    'Content',
    'Channels',
    'Sub-channels',
    'Datasources',
    'Schedules',
    'Proof of play',
    'Screens',
    'Advertisers',
    'Alerts',
    'Alert rules',
    'Notification channels',
    'Integrations',
    'Users',
    'Teams',
    'Customers',
    'Licences',
    'Audit log',
    'Settings',
  ]);
  await nav.getByRole('link', { name: 'Overview' }).click();
  await expect(page).toHaveURL((url) => url.pathname === '/');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Welcome');
  await expect(page.getByTestId('current-tenant')).toHaveText('All tenants');
  await page.getByRole('button', { name: /Account menu/ }).click();
  const menu = page.getByRole('menu');
  await expect(menu.getByTestId('user-email')).toHaveText(admin.email);
  await expect(menu.getByText('Super Administrator')).toBeVisible();
  await screenshot(page, 'user-menu');
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await screenshot(page, 'overview');

  // A second tenant, created through the API.
  const tokens = await passwordGrant(request);
  const tenantName = `E2E Tenant ${Date.now().toString(36)}`;
  const customer = await createCustomer(request, tokens.access_token, tenantName);

  // Switch to it with the keyboard: type to filter, Enter picks the highlighted tenant.
  await page.getByRole('button', { name: /Switch tenant/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Switch tenant' });
  await expect(dialog.getByRole('option', { name: /All tenants/ })).toBeVisible();
  await screenshot(page, 'tenant-switcher');
  await dialog.getByRole('combobox', { name: 'Search tenants' }).fill(tenantName);
  await expectOnlyOption(dialog.getByRole('option'), tenantName);
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('current-tenant')).toHaveText(tenantName);
  await expect(page.getByTestId('overview-tenant')).toHaveText(tenantName);

  // The users page is scoped to the new tenant, which has no users.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).click();
  await expect(page.getByTestId('users-empty')).toContainText(`${tenantName} has no users yet.`);
  await expect(page.getByRole('cell', { name: admin.email })).toHaveCount(0);
  await screenshot(page, 'users-empty-tenant');

  // The selection survives a reload.
  await page.reload();
  await expect(page.getByTestId('current-tenant')).toHaveText(tenantName);

  // Back to all tenants: the admin is listed again, and a search narrows the list.
  await page.getByRole('button', { name: /Switch tenant/ }).click();
  await page
    .getByRole('dialog', { name: 'Switch tenant' })
    .getByRole('option', { name: /All tenants/ })
    .click();
  await expect(page.getByTestId('current-tenant')).toHaveText('All tenants');
  await expect(page.getByRole('cell', { name: admin.email })).toBeVisible();
  await page.getByRole('searchbox', { name: /Search users/ }).fill('no-such-person-xyz');
  await expect(page.getByTestId('users-empty')).toContainText('No users match');
  await expect(page).toHaveURL(/q=no-such-person-xyz/);
  await page.getByRole('button', { name: 'Clear search' }).click();
  await expect(page.getByRole('cell', { name: admin.email })).toBeVisible();

  // Sorting by a header is reflected in the URL and the header state.
  await page.getByRole('button', { name: /^E-mail/ }).click();
  await expect(page).toHaveURL(/sort=email%2Casc/);
  await expect(page.getByRole('columnheader', { name: /E-mail/ })).toHaveAttribute('aria-sort', 'ascending');

  // Sign out: the session is gone and its tokens are revoked.
  const before = await sessionTokens(context);
  expect(before?.refreshToken).toBeTruthy();
  await page.getByRole('button', { name: /Account menu/ }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL((url) => url.pathname === '/login' && !url.searchParams.has('reason'));
  await expect(page.getByRole('heading', { name: 'Sign in to Signage Console' })).toBeVisible();
  expect(await sessionTokens(context)).toBeNull();
  await page.goto('/');
  await expect(page).toHaveURL(/\/login/);

  const refresh = await tokenGrant(request, { grant_type: 'refresh_token', refresh_token: before!.refreshToken! });
  expect(refresh.status()).toBe(400);
  const me = await request.get('/api/v2/user/me', { headers: { Authorization: `Bearer ${before!.accessToken}` } });
  expect(me.status()).toBe(401);

  expect(customer.name).toBe(tenantName);
  expect(errors).toEqual([]);
});

test('a session revoked elsewhere sends the user back to the login page', async ({ page, context, request }) => {
  await signIn(page);
  const tokens = await sessionTokens(context);
  expect(tokens?.refreshToken).toBeTruthy();

  const revoke = await request.post('/oauth/revoke', {
    headers: { Authorization: `Basic ${Buffer.from(`default-client:${process.env.E2E_CLIENT_SECRET ?? ''}`).toString('base64')}` },
    form: { token: tokens!.refreshToken! },
  });
  expect(revoke.status()).toBe(200);

  // The next API call is refused, the retry too, and the console asks for a new sign-in.
  // Open /users directly: a background refetch on the overview may notice the revocation first.
  await page.goto('/users');
  await expect(page).toHaveURL((url) => url.pathname === '/login' && url.searchParams.get('callbackUrl') === '/users');
  await expect(page.getByText('Your session has ended. Sign in again to continue.')).toBeVisible();
  expect(await sessionTokens(context)).toBeNull();
  await screenshot(page, 'login-session-ended');
  await signInFromLoginPage(page);
  await expect(page).toHaveURL((url) => url.pathname === '/users');
  await expect(page.getByRole('cell', { name: admin.email })).toBeVisible();
});

test('a page view prefetches no page payloads; pointing at a sidebar entry prefetches it, and it opens without a reload', async ({
  page,
}) => {
  // A page payload request carries `_rsc`; the console asks for one only when a link is reached or followed.
  const payloads: string[] = [];
  page.on('request', (req) => {
    const url = new URL(req.url());
    if (url.searchParams.has('_rsc')) payloads.push(url.pathname);
  });
  await signIn(page);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Licences' })).toBeVisible();
  await page.goto('/media');
  await expect(page.getByRole('heading', { level: 1, name: 'Media' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Audit log' })).toBeVisible();
  // The page is loaded and its sidebar drawn: nothing was prefetched (before, every entry was, twice).
  await page.waitForLoadState('networkidle');
  expect(payloads).toEqual([]);

  const prefetched = page.waitForRequest(
    (req) => new URL(req.url()).pathname === '/audit-log' && new URL(req.url()).searchParams.has('_rsc'),
  );
  await nav.getByRole('link', { name: 'Audit log' }).hover();
  await prefetched;
  // A client-side navigation: the document stays (a marker set on it survives), the page changes.
  await page.evaluate(() => ((window as unknown as { stillHere: boolean }).stillHere = true));
  await nav.getByRole('link', { name: 'Audit log' }).click();
  await expect(page).toHaveURL(/\/audit-log$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);
  expect(new Set(payloads)).toEqual(new Set(['/audit-log']));
});
