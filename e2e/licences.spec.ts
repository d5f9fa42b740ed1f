import { expect, test } from '@playwright/test';
import { createCustomer, createUser, passwordGrant, screenshot, screenshotAtBothWidths, signIn, uniqueSuffix } from './fixtures';

/*
 * Issue 33 "Console": a tenant's OWNER orders licences, the super admin sees the order awaiting approval in the shell
 * and approves it, and the tenant then has the licences free. (The /player licensing part follows in this file.)
 */
test('a tenant orders 5 licences, the super admin approves them, the tenant has 5 free', async ({ page, browser, request }) => {
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
  await approve.getByLabel('Pay type').selectOption({ label: 'One-time' });
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
  await add.getByRole('button', { name: 'Cancel' }).click();
  await screenshotAtBothWidths(page, 'licences-screens-of-order');
});
