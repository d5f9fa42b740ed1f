import { expect, test, type Page } from '@playwright/test';
import { collectConsoleErrors, createCustomer, passwordGrant, screenshot, signIn } from './fixtures';

const suffix = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function customerRow(page: Page, name: string) {
  await page.getByRole('searchbox', { name: /Search customers/ }).fill(name);
  // Wait for the search's own page (header + that one row), so a click does not land on a row being replaced.
  await expect(page.getByRole('row')).toHaveCount(2);
  await expect(page.getByRole('row').nth(1)).toContainText(name);
  const row = page.getByRole('row').filter({ hasText: name });

  return row;
}

async function rowAction(page: Page, name: string, action: string) {
  const row = await customerRow(page, name);
  await expect(async () => {
    await row.getByRole('button', { name: /Actions for/ }).click();
    await page.getByRole('menuitem', { name: action }).click({ timeout: 2_000 });
  }).toPass({ timeout: 15_000 });

  return row;
}

test('a super administrator builds a network, and its owner manages only its own customers', async ({ page, browser, request }) => {
  // Two sign-ins and a dozen dialogs: beside the console tour on the other worker it can pass a minute.
  test.setTimeout(120_000);
  const errors = collectConsoleErrors(page);
  const s = suffix();
  const network = `E2E Network ${s}`;
  const shop = `E2E Shop ${s}`;
  const admin = await passwordGrant(request);
  const { id: networkId } = await createCustomer(request, admin.access_token, network);
  await createCustomer(request, admin.access_token, shop);

  await signIn(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Customers' }).click();
  await expect(page.getByRole('heading', { name: 'Customers', level: 1 })).toBeVisible();

  // Promote the network owner.
  await rowAction(page, network, 'Promote to network owner');
  const promote = page.getByRole('alertdialog', { name: 'Promote to network owner' });
  await promote.getByRole('button', { name: 'Promote' }).click();
  await expect(promote).toBeHidden();
  await expect(await customerRow(page, network)).toContainText('Network owner');

  // Move the shop into its network.
  await rowAction(page, shop, 'Move to network owner…');
  const move = page.getByRole('dialog', { name: 'Move to network owner' });
  await move.getByLabel('Network owner').selectOption({ label: network });
  await screenshot(page, 'network-move-dialog');
  await move.getByRole('button', { name: 'Move' }).click();
  await expect(move).toBeHidden();
  await expect(await customerRow(page, shop)).toContainText(network);

  // The privilege cannot be removed while the network has members.
  await rowAction(page, network, 'Remove network-owner privilege');
  const demote = page.getByRole('alertdialog', { name: 'Remove network-owner privilege' });
  await demote.getByRole('button', { name: 'Remove privilege' }).click();
  await expect(demote.getByRole('alert')).toBeVisible();
  await screenshot(page, 'network-demote-refused');
  await demote.getByRole('button', { name: 'Cancel' }).click();
  await expect(await customerRow(page, network)).toContainText('Network owner');
  expect(errors.filter((e) => !/409|Failed to load resource/.test(e))).toEqual([]);

  // The network's OWNER, in a browser of its own.
  const ownerEmail = `owner-${s}@example.com`;
  const ownerPassword = 'network owner password';
  const created = await request.post(`/api/user?customerId=${networkId}`, {
    headers: { Authorization: `Bearer ${admin.access_token}` },
    data: { email: ownerEmail, name: 'Network Owner', role: 'OWNER', password: ownerPassword },
  });
  expect(created.status(), await created.text()).toBeLessThan(300);

  const ownerContext = await browser.newContext();
  const ownerPage = await ownerContext.newPage();
  const ownerErrors = collectConsoleErrors(ownerPage);
  await signIn(ownerPage, ownerEmail, ownerPassword);
  await ownerPage.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Customers' }).click();
  await expect(ownerPage.getByRole('heading', { name: 'Customers', level: 1 })).toBeVisible();
  await expect(ownerPage.getByText('The customers of your network.')).toBeVisible();
  await expect(ownerPage.getByRole('row').filter({ hasText: shop })).toBeVisible();
  await expect(ownerPage.getByRole('row').filter({ hasText: 'Operator' })).toHaveCount(0);

  // A member it creates: Essential or Business only, no super-administrator fields.
  const member = `E2E Member ${s}`;
  await ownerPage.getByRole('button', { name: 'New customer' }).first().click();
  const dialog = ownerPage.getByRole('dialog', { name: 'New customer' });
  await expect(dialog.getByLabel('License tier').locator('option')).toHaveText(['Essential', 'Business']);
  await expect(dialog.getByLabel('Free licenses')).toHaveCount(0);
  await dialog.getByLabel('Name').fill(member);
  await dialog.getByLabel('License tier').selectOption('BUSINESS');
  await screenshot(ownerPage, 'network-owner-create-member');
  await dialog.getByRole('button', { name: 'Create customer' }).click();
  await expect(dialog).toBeHidden();
  await expect(await customerRow(ownerPage, member)).toContainText('Business');
  await screenshot(ownerPage, 'network-owner-customers');

  // Its tenant switcher offers the network and its members, nothing else, and works in a member.
  await expect(ownerPage.getByTestId('current-tenant')).toHaveText('Whole network');
  await ownerPage.getByRole('button', { name: /Switch tenant/ }).click();
  const switcher = ownerPage.getByRole('dialog', { name: 'Switch tenant' });
  await expect(switcher.getByRole('option', { name: 'Whole network' })).toBeVisible();
  const search = switcher.getByRole('combobox', { name: 'Search tenants' });
  await search.fill('Operator');
  await expect(switcher.getByText('No tenant matches')).toBeVisible();
  await search.fill(s);
  await expect(switcher.getByRole('option')).toHaveCount(3);
  await screenshot(ownerPage, 'network-owner-switcher');
  await switcher.getByRole('option', { name: member }).click();
  await expect(ownerPage.getByTestId('current-tenant')).toHaveText(member);
  await ownerPage.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Overview' }).click();
  await expect(ownerPage.getByTestId('overview-tenant')).toHaveText(member);
  expect(ownerErrors).toEqual([]);
  await ownerContext.close();
});
