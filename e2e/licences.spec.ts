import { expect, test } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { api, createCustomer, createUser, passwordGrant, screenshot, screenshotAtBothWidths, signIn, uniqueSuffix } from './fixtures';

/*
 * Issue 33 "Console": a tenant's OWNER orders licences, the super admin sees the order awaiting approval in the shell
 * and approves it (a monthly subscription), the tenant has them free, licenses a real /player screen with one, and the
 * super admin's invoice view shows the monthly revenue.
 */
test('a tenant orders 5 licences, the super admin approves them, the tenant licenses a /player screen, the invoice shows the revenue', async ({
  page,
  browser,
  request,
}) => {
  // Two browsers (tenant and super admin) on a busy machine.
  test.setTimeout(240_000);
  const suffix = uniqueSuffix();
  const token = (await passwordGrant(request)).access_token;
  const customer = await createCustomer(request, token, `Licence Tenant ${suffix}`);
  const owner = await createUser(request, token, customer.id, 'OWNER', 'Lena', suffix);

  // The tenant's OWNER: no orders yet, then an order of 5 Professional licences.
  await signIn(page, owner.email, owner.password);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Licences' }).click();
  await expect(page.getByRole('heading', { name: 'Licences', level: 1 })).toBeVisible();
  await expect(page.getByText('No licence orders yet')).toBeVisible();
  await page.getByRole('button', { name: 'Order licences' }).first().click();
  const order = page.getByRole('dialog', { name: 'Order licences' });
  await order.getByLabel('Number of licences').fill('5');
  await order.getByLabel('Licence type').selectOption({ label: 'Professional' });
  await order.getByLabel('PO number').fill(`PO-${suffix}`);
  await screenshot(page, 'licences-order-dialog');
  await order.getByRole('button', { name: 'Order', exact: true }).click();
  await expect(order).toBeHidden();
  await expect(page.getByText('Your order of 5 licences awaits approval.')).toBeVisible();
  const ownerRow = page.getByRole('row').filter({ hasText: `PO-${suffix}` });
  await expect(ownerRow).toContainText('Awaiting approval');
  await expect(ownerRow).toContainText('Professional');
  await screenshotAtBothWidths(page, 'licences-tenant-awaiting');

  // The super admin: the shell counts the order, the licences page shows it awaiting; approving asks first.
  const adminContext = await browser.newContext();
  const adminPage = await adminContext.newPage();
  await signIn(adminPage);
  const nav = adminPage.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByTestId('nav-badge-awaitingApproval')).toContainText(/licence orders? awaits? approval/);
  await nav.getByRole('link', { name: 'Licences' }).click();
  await expect(adminPage.getByRole('heading', { name: 'Licences', level: 1 })).toBeVisible();
  await expect(adminPage.getByTestId('licences-awaiting')).toContainText(/awaits? your approval/);
  await adminPage.getByRole('button', { name: 'Show them' }).click();
  await expect(adminPage).toHaveURL(/state=awaiting/);
  await adminPage.getByRole('searchbox', { name: 'Search licence orders' }).fill(`PO-${suffix}`);
  const adminRow = adminPage.getByRole('row').filter({ hasText: customer.name });
  await expect(adminRow).toContainText('Awaiting approval');
  await screenshotAtBothWidths(adminPage, 'licences-admin-awaiting');
  await adminRow.getByRole('button', { name: /Actions for the order of/ }).click();
  await adminPage.getByRole('menuitem', { name: 'Approve…' }).click();
  const approve = adminPage.getByRole('dialog', { name: 'Approve this order?' });
  await expect(approve).toContainText(customer.name);
  // The tenant named the type, not how it is paid: the dialog asks for what the order lacks.
  await expect(approve.getByLabel('Licence type')).toHaveValue('PROFESSIONAL');
  // A monthly subscription at 20 CHF a screen (a currency no other story invoices: the global view sums every tenant).
  await approve.getByLabel('Pay type').selectOption({ label: 'Subscription' });
  await approve.getByLabel('Invoiced every').fill('1');
  await approve.getByLabel('Period').selectOption({ label: 'Months' });
  await approve.getByLabel('Price per screen').fill('20');
  await approve.getByLabel('Currency').fill('chf');
  await screenshot(adminPage, 'licences-approve-dialog');
  await approve.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(approve).toBeHidden();
  await expect(adminPage.getByText('The order of 5 licences was approved.')).toBeVisible();
  // Approved, it no longer awaits: the filtered list is empty.
  await expect(adminPage.getByRole('row').filter({ hasText: customer.name })).toHaveCount(0);
  await adminPage.getByLabel('Approval').selectOption({ label: 'Every order' });
  await expect(adminPage.getByRole('row').filter({ hasText: customer.name })).toContainText('Approved');

  // Packages (the super admin's): a subscription package, listed with its period and price.
  await adminPage.getByRole('navigation', { name: 'Licence pages' }).getByRole('link', { name: 'Packages' }).click();
  await expect(adminPage).toHaveURL(/\/licences\/packages$/);
  await adminPage.getByRole('button', { name: 'New package' }).first().click();
  const pkg = adminPage.getByRole('dialog', { name: 'New package' });
  await pkg.getByLabel('Name').fill(`Premium monthly ${suffix}`);
  await pkg.getByLabel('Licence type').selectOption({ label: 'Premium' });
  await pkg.getByLabel('Pay type').selectOption({ label: 'Subscription' });
  await pkg.getByLabel('Invoiced every').fill('1');
  await pkg.getByLabel('Period').selectOption({ label: 'Months' });
  await pkg.getByLabel('Price per screen').fill('12.5');
  await pkg.getByLabel('Currency').fill('eur');
  await pkg.getByRole('button', { name: 'Create package' }).click();
  await expect(pkg).toBeHidden();
  const pkgRow = adminPage.getByRole('row').filter({ hasText: `Premium monthly ${suffix}` });
  await expect(pkgRow).toContainText('Subscription, monthly');
  await expect(pkgRow).toContainText('EUR');
  await screenshotAtBothWidths(adminPage, 'licences-packages');
  await adminContext.close();

  // The tenant again: the order is approved and its 5 Professional licences are free.
  await page.reload();
  await expect(ownerRow).toContainText('Approved');
  const professional = page.getByTestId('licence-type-PROFESSIONAL');
  await expect(professional).toContainText('5 free');
  await expect(professional).toContainText('0 of 5 assigned');
  await expect(ownerRow.getByRole('link', { name: /Screens with licences of this order/ })).toHaveAttribute(
    'href',
    /\/screens\?licenseOrder=\d+$/,
  );
  await screenshotAtBothWidths(page, 'licences-tenant-approved');

  // The order's link lists its screens (none yet); adding a screen offers the order's free licences.
  await ownerRow.getByRole('link', { name: /Screens with licences of this order/ }).click();
  await expect(page).toHaveURL(/\/screens\?licenseOrder=\d+$/);
  await expect(page.getByTestId('screens-licence-order-filter')).toContainText(/Licences of order #\d+/);
  await page.getByRole('button', { name: 'Add screen' }).first().click();
  const add = page.getByRole('dialog', { name: 'Add a screen' });
  await expect(add.getByLabel('Licence').getByRole('option', { name: /Licensed: Professional · order of .*, 5 free/ })).toHaveCount(1);
  await screenshot(page, 'licences-add-screen-offers');

  // A real /player: its code claims it with a licence of the order (spec 5 §6), and it plays.
  const screenContext = await browser.newContext({ viewport: { width: 960, height: 540 } });
  const player = await screenContext.newPage();
  await player.goto('/player');
  const code = player.getByTestId('activation-code');
  await expect(code).toHaveText(/^\d{4}$/, { timeout: 30_000 });
  await add.getByLabel('Code on the screen').fill((await code.textContent())!);
  await add.getByLabel('Name').fill(`Licensed lobby ${suffix}`);
  await add.getByLabel('Licence').selectOption({
    label: (await add
      .getByLabel('Licence')
      .getByRole('option', { name: /Licensed: Professional/ })
      .textContent())!,
  });
  await add.getByRole('button', { name: 'Add screen' }).click();
  await expect(add).toBeHidden();
  // Adding a screen opens its page, which names the licence it holds.
  await expect(page).toHaveURL(/\/screens\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1, name: `Licensed lobby ${suffix}` })).toBeVisible();
  await expect(page.getByRole('definition').filter({ hasText: 'Licensed: Professional' })).toHaveCount(1);
  await expect(player.locator('body')).toHaveAttribute('data-state', 'playing', { timeout: 60_000 });
  // The order's screens list it, with its licence's name; the licences page counts it.
  await page.goBack();
  await expect(page).toHaveURL(/\/screens\?licenseOrder=\d+$/);
  const screenRow = page.getByRole('row').filter({ hasText: `Licensed lobby ${suffix}` });
  await expect(screenRow).toContainText('Professional');
  await screenshotAtBothWidths(page, 'licences-screens-of-order');
  await page.goto('/licences');
  await expect(professional).toContainText('4 free');
  await expect(professional).toContainText('1 of 5 assigned');
  await screenContext.close();

  // The super admin's invoice view: the tenant's monthly revenue, 5 × 20 CHF.
  const invoiceContext = await browser.newContext();
  const invoicePage = await invoiceContext.newPage();
  await signIn(invoicePage);
  await invoicePage.goto('/licences/invoices');
  await invoicePage.getByLabel('Search customers').fill(customer.name);
  await invoicePage.getByLabel('Customer', { exact: true }).selectOption({ label: customer.name });
  await expect(invoicePage).toHaveURL(new RegExp(`customerId=${customer.id}`));
  await expect(invoicePage.getByTestId('revenue').filter({ hasText: 'CHF' })).toContainText('100.00');
  await screenshotAtBothWidths(invoicePage, 'licences-invoice-revenue');
  await invoiceContext.close();
});

/*
 * Issue 33 "Network owner": the owner of a network orders licences for a member from the whole-network view, sees them
 * with the member's name and withdraws one it no longer wants; the super admin exports the orders as CSV and rejects
 * the other.
 */
test('a network owner orders licences for a member and withdraws one; the super admin exports them and rejects the other', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const suffix = uniqueSuffix();
  const token = (await passwordGrant(request)).access_token;
  const network = await createCustomer(request, token, `Licence Network ${suffix}`);
  const member = await createCustomer(request, token, `Licence Member ${suffix}`);
  await api(request, token, 'POST', `/api/customer/${network.id}/promoteAsSubreseller`);
  await api(request, token, 'PUT', `/api/customer/${member.id}/moveToSubreseller?subresellerId=${network.id}`);
  const owner = await createUser(request, token, network.id, 'OWNER', 'Nora', suffix);

  // The network's owner, in the whole-network view: every order names its customer; it orders for the member.
  await signIn(page, owner.email, owner.password);
  await expect(page.getByTestId('current-tenant')).toHaveText('Whole network');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Licences' }).click();
  await expect(page.getByText("Licence orders of your network's tenants.")).toBeVisible();
  for (const [count, po] of [
    ['3', `NW-KEEP-${suffix}`],
    ['2', `NW-DROP-${suffix}`],
  ] as const) {
    await page.getByRole('button', { name: 'Order licences' }).first().click();
    const order = page.getByRole('dialog', { name: 'Order licences' });
    await order.getByLabel('Search customers').fill(member.name);
    await order.getByLabel('Customer', { exact: true }).selectOption({ label: member.name });
    await order.getByLabel('Number of licences').fill(count);
    await order.getByLabel('Licence type').selectOption({ label: 'Lite' });
    await order.getByLabel('PO number').fill(po);
    if (count === '3') await screenshot(page, 'licences-network-order-dialog');
    await order.getByRole('button', { name: 'Order', exact: true }).click();
    await expect(order).toBeHidden();
    await expect(page.getByText(`Your order of ${count} licences awaits approval.`)).toBeVisible();
    const row = page.getByRole('row').filter({ hasText: po });
    await expect(row).toContainText(member.name);
    await expect(row).toContainText('Awaiting approval');
  }
  await screenshotAtBothWidths(page, 'licences-network-orders');

  // It withdraws the order it no longer wants (its own network's, unapproved).
  const dropRow = page.getByRole('row').filter({ hasText: `NW-DROP-${suffix}` });
  await dropRow.getByRole('button', { name: /Actions for the order of/ }).click();
  await page.getByRole('menuitem', { name: 'Delete…' }).click();
  const withdraw = page.getByRole('alertdialog', { name: 'Withdraw this order?' });
  await withdraw.getByRole('button', { name: 'Withdraw order' }).click();
  await expect(withdraw).toBeHidden();
  await expect(page.getByRole('row').filter({ hasText: `NW-DROP-${suffix}` })).toHaveCount(0);
  await expect(page.getByRole('row').filter({ hasText: `NW-KEEP-${suffix}` })).toBeVisible();

  // The super admin: the CSV names the member's order; rejecting it asks first and removes it.
  const adminContext = await browser.newContext();
  const adminPage = await adminContext.newPage();
  await signIn(adminPage);
  await adminPage.goto('/licences');
  await expect(adminPage.getByRole('heading', { name: 'Licences', level: 1 })).toBeVisible();
  const [download] = await Promise.all([adminPage.waitForEvent('download'), adminPage.getByRole('link', { name: 'Export CSV' }).click()]);
  const csv = await readFile((await download.path())!, 'utf8');
  expect(csv).toContain(`NW-KEEP-${suffix}`);
  expect(csv).not.toContain(`NW-DROP-${suffix}`);
  await adminPage.getByRole('searchbox', { name: 'Search licence orders' }).fill(`NW-KEEP-${suffix}`);
  const adminRow = adminPage.getByRole('row').filter({ hasText: member.name });
  await expect(adminRow).toContainText('Awaiting approval');
  await adminRow.getByRole('button', { name: /Actions for the order of/ }).click();
  await adminPage.getByRole('menuitem', { name: 'Reject…' }).click();
  const reject = adminPage.getByRole('alertdialog', { name: 'Reject this order?' });
  await expect(reject).toContainText(member.name);
  await screenshot(adminPage, 'licences-reject-dialog');
  await reject.getByRole('button', { name: 'Reject order' }).click();
  await expect(reject).toBeHidden();
  await expect(adminPage.getByText('The order was rejected.')).toBeVisible();
  await expect(adminPage.getByRole('row').filter({ hasText: member.name })).toHaveCount(0);
  await adminContext.close();

  // The network owner's list no longer holds it either.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Licences', level: 1 })).toBeVisible();
  await expect(page.getByText('No licence orders yet')).toBeVisible();
});
