import { expect, test, type Page } from '@playwright/test';
import { totpCodes } from '../server/test/totp';
import { admin, collectConsoleErrors, passwordGrant, screenshot, signIn } from './fixtures';

const suffix = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function switchTenant(page: Page, name: string) {
  await page.getByRole('button', { name: /Switch tenant/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Switch tenant' });
  await dialog.getByRole('combobox', { name: 'Search tenants' }).fill(name);
  // Click the named option: the keyboard path is covered in shell.spec, and a click cannot act on
  // a list that is still showing the previous search's results.
  const option = dialog.getByRole('option', { name });
  await expect(option).toHaveCount(1);
  await option.click();
  await expect(page.getByTestId('current-tenant')).toHaveText(name);
}

test('an administrator creates, edits and deletes a user', async ({ page }) => {
  const errors = collectConsoleErrors(page);
  const email = `e2e-user-${suffix()}@example.com`;
  await signIn(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).click();

  // Create: the form validates first, then the API.
  await page.getByRole('button', { name: 'New user' }).click();
  const create = page.getByRole('dialog', { name: 'New user' });
  await create.getByRole('button', { name: 'Create user' }).click();
  await expect(create.getByText('Enter a valid e-mail address')).toBeVisible();
  await expect(create.getByText('At least 8 characters')).toBeVisible();
  await create.getByLabel('E-mail').fill(email);
  await create.getByLabel('Name').fill('Erin Example');
  await create.getByLabel('Role').selectOption('EDITOR');
  await create.getByLabel('Password').fill('Secret-pass-123');
  // Under "All tenants" the new user's tenant is chosen in the dialog: the administrator's own.
  await create.getByLabel('Search tenants').fill('Operator');
  await create.getByLabel('Tenant', { exact: true }).selectOption({ label: 'Operator' });
  await screenshot(page, 'users-create-dialog');
  await create.getByRole('button', { name: 'Create user' }).click();
  await expect(create).toBeHidden();
  const row = page.getByRole('row').filter({ hasText: email });
  await expect(row).toContainText('Content editor');

  // The same e-mail again: the API's conflict shows in the dialog.
  await page.getByRole('button', { name: 'New user' }).click();
  await create.getByLabel('E-mail').fill(email);
  await create.getByLabel('Name').fill('Duplicate');
  await create.getByLabel('Password').fill('Secret-pass-123');
  await create.getByLabel('Search tenants').fill('Operator');
  await create.getByLabel('Tenant', { exact: true }).selectOption({ label: 'Operator' });
  await create.getByRole('button', { name: 'Create user' }).click();
  await expect(create.getByText(/exist|already|use/i).first()).toBeVisible();
  await screenshot(page, 'users-create-conflict');
  await create.getByRole('button', { name: 'Cancel' }).click();

  // Edit: name, role and the read-only flag.
  await row.getByRole('button', { name: /Actions for/ }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit user' });
  await edit.getByLabel('Name').fill('Erin Edited');
  await edit.getByLabel('Role').selectOption('APPROVER');
  await edit.getByLabel('Read-only').check();
  await screenshot(page, 'users-edit-dialog');
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(edit).toBeHidden();
  const edited = page.getByRole('row').filter({ hasText: email });
  await expect(edited).toContainText('Erin Edited');
  await expect(edited).toContainText('Content manager');
  await expect(edited).toContainText('Read-only');
  await screenshot(page, 'users-with-actions');

  // Delete: the confirmation names the user.
  await edited.getByRole('button', { name: /Actions for/ }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete user' });
  await expect(confirm).toContainText(`Erin Edited (${email})`);
  await screenshot(page, 'users-delete-confirm');
  await confirm.getByRole('button', { name: 'Delete user' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByRole('row').filter({ hasText: email })).toHaveCount(0);

  expect(errors.filter((e) => !/409|Failed to load resource/.test(e))).toEqual([]);
});

test('a user enrols 2FA, then changes the password with a one-time code; an administrator resets it', async ({
  page,
  request,
  browser,
}) => {
  // Three one-time codes, each accepted once: the last may wait for the next 30-second period.
  test.setTimeout(240_000);
  const errors = collectConsoleErrors(page);
  const email = `e2e-owner-${suffix()}@example.com`;
  const tokens = await passwordGrant(request);
  const created = await request.post('/api/user/', {
    headers: { Authorization: `Bearer ${tokens.access_token}` },
    data: { email, name: 'Olga Owner', role: 'OWNER', password: 'First-pass-123', language: 'en' },
  });
  expect(created.status(), await created.text()).toBeLessThan(300);

  await signIn(page, email, 'First-pass-123');
  await page.getByRole('button', { name: /Account menu/ }).click();
  await page.getByRole('menuitem', { name: 'Your account' }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole('heading', { name: 'Your account', level: 1 })).toBeVisible();
  // An OWNER sees the audit log but not the customers page.
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
    'Licences',
    'Audit log',
    'Settings',
  ]);

  // Profile.
  await page.getByLabel('Name').fill('Olga Renamed');
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByText('Your profile was saved.')).toBeVisible();

  // Profile picture: a preview first, then saved.
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
  await page.locator('input[type=file]').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
  await expect(page.getByRole('img', { name: 'Preview of your new profile picture' })).toBeVisible();
  await page.getByRole('button', { name: 'Save picture' }).click();
  await expect(page.getByRole('img', { name: 'Your profile picture' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Remove' })).toBeVisible();

  // 2FA: a QR code and the key; the code computed from the key turns it on.
  await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
  await expect(page.getByTestId('totp-qr').locator('svg')).toBeVisible();
  const secret = (await page.getByTestId('totp-secret').getAttribute('data-secret'))!;
  expect(secret).toMatch(/^[A-Z2-7]+=*$/);
  await screenshot(page, 'account-2fa-enrol');
  // Each code is accepted once: every step below needs a fresh one.
  const codes = totpCodes(secret, { safetyMs: 15_000 });
  await page.getByLabel('Code from the app').fill(await codes.next());
  await page.getByRole('button', { name: 'Turn on 2FA' }).click();
  await expect(page.getByText('Two-factor authentication is on.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Turn off 2FA' })).toBeVisible();
  await screenshot(page, 'account');

  // Password: protected, so the console asks for the one-time code, then signs out everywhere.
  await page.getByLabel('Current password').fill('First-pass-123');
  await page.getByLabel('New password', { exact: true }).fill('Second-pass-456');
  await page.getByLabel('Confirm new password').fill('Second-pass-456');
  await page.getByRole('button', { name: 'Change password' }).click();
  const prompt = page.getByRole('dialog', { name: 'Confirm with your one-time code' });
  await expect(prompt).toBeVisible();
  await screenshot(page, 'account-totp-prompt');
  await prompt.getByLabel('One-time code').fill(await codes.next());
  await prompt.getByRole('button', { name: 'Confirm' }).click();
  await expect(page).toHaveURL(/\/login\?reason=password/);
  await expect(page.getByText('Your password was changed')).toBeVisible();
  await screenshot(page, 'login-password-changed');

  // The new password and a code sign in again (once the form is live).
  await page.waitForLoadState('networkidle');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill('Second-pass-456');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByLabel('One-time code').fill(await codes.next());
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL((url) => url.pathname === '/');
  expect(errors.filter((e) => !/40[13]|Failed to load resource/.test(e))).toEqual([]);

  // The phone is lost: a super administrator resets the second factor from the users table.
  const adminContext = await browser.newContext();
  const adminPage = await adminContext.newPage();
  const adminErrors = collectConsoleErrors(adminPage);
  await signIn(adminPage);
  await adminPage.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).click();
  await adminPage.getByRole('searchbox').first().fill(email);
  const row = adminPage.getByRole('row').filter({ hasText: email });
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: /Actions for/ }).click();
  await adminPage.getByRole('menuitem', { name: 'Reset 2FA' }).click();
  const reset = adminPage.getByRole('alertdialog', { name: 'Reset two-factor authentication' });
  await reset.getByRole('button', { name: 'Reset 2FA' }).click();
  await expect(reset).toBeHidden();
  await row.getByRole('button', { name: /Actions for/ }).click();
  await expect(adminPage.getByRole('menuitem', { name: 'Edit' })).toBeVisible();
  await expect(adminPage.getByRole('menuitem', { name: 'Reset 2FA' })).toHaveCount(0);
  await adminPage.keyboard.press('Escape');
  expect(adminErrors).toEqual([]);
  await adminContext.close();

  // The password alone signs in again.
  await passwordGrant(request, email, 'Second-pass-456');
});

test('a super administrator creates and restricts a customer and reads the audit log', async ({ page }) => {
  // A dozen pages and dialogs: over a minute on a busy machine.
  test.setTimeout(120_000);
  const errors = collectConsoleErrors(page);
  const name = `E2E Customer ${suffix()}`;
  await signIn(page);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: 'Customers' }).click();
  await expect(page.getByRole('heading', { name: 'Customers', level: 1 })).toBeVisible();

  await page.getByRole('button', { name: 'New customer' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'New customer' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('License tier').selectOption('BUSINESS');
  await dialog.getByLabel('Vertical').selectOption('RETAIL');
  await dialog.getByLabel('Country').fill('Austria');
  await dialog.getByLabel('Free licenses').fill('3');
  await screenshot(page, 'customers-create-dialog');
  await dialog.getByRole('button', { name: 'Create customer' }).click();
  await expect(dialog).toBeHidden();

  await page.getByRole('searchbox', { name: /Search customers/ }).fill(name);
  await expect(page).toHaveURL(/q=E2E/);
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('Business');
  await expect(row).toContainText('Retail');
  await expect(row).toContainText('Active');

  await row.getByRole('button', { name: /Actions for/ }).click();
  await page.getByRole('menuitem', { name: 'Restrict' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Restrict customer' });
  await confirm.getByRole('button', { name: 'Restrict' }).click();
  await expect(confirm).toBeHidden();
  await expect(row).toContainText('Restricted');

  await row.getByRole('button', { name: /Actions for/ }).click();
  await page.getByRole('menuitem', { name: 'Set expiration date' }).click();
  const expiry = page.getByRole('dialog', { name: 'Set expiration date' });
  await expiry.getByLabel('Expires at the end of').fill('2031-12-31');
  await expiry.getByRole('button', { name: 'Save' }).click();
  await expect(expiry).toBeHidden();
  await expect(row).toContainText('2031');
  await screenshot(page, 'customers');

  // Delete asks for the name.
  await row.getByRole('button', { name: /Actions for/ }).click();
  await page.getByRole('menuitem', { name: 'Delete…' }).click();
  const del = page.getByRole('alertdialog', { name: 'Delete customer' });
  await expect(del.getByRole('button', { name: 'Delete customer' })).toBeDisabled();
  await screenshot(page, 'customers-delete-confirm');
  await del.getByRole('button', { name: 'Cancel' }).click();

  // The audit log of the new tenant shows its creation and changes; the CSV link follows the filters.
  await nav.getByRole('link', { name: 'Audit log' }).click();
  // All tenants: every entry names its tenant.
  await expect(page.getByRole('columnheader', { name: 'Tenant' })).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: `Customer '${name}' created` })).toBeVisible();
  await switchTenant(page, name);
  await expect(page.getByRole('columnheader', { name: 'Tenant' })).toHaveCount(0);
  await expect(page.getByRole('row').filter({ hasText: `Customer '${name}' updated: restricted` })).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: 'Operator' })).toHaveCount(0);
  await expect(page.getByRole('row').filter({ hasText: `Customer '${name}' created` })).toBeVisible();
  await screenshot(page, 'audit-log');
  await page.getByRole('button', { name: /Newest first/ }).click();
  await expect(page).toHaveURL(/order=asc/);
  await page.getByRole('searchbox', { name: 'Search the audit log' }).fill('no-such-entry-xyz');
  await expect(page.getByTestId('audit-empty')).toBeVisible();
  const csv = page.getByRole('link', { name: 'Export CSV' });
  await expect(csv).toHaveAttribute('href', /\/api\/v2\/log\/csv\?customerId=\d+&search=no-such-entry-xyz&order=ASC/);
  expect(errors).toEqual([]);
  void admin;
});
