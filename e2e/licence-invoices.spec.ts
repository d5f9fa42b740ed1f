import { expect, test } from '@playwright/test';
import {
  api,
  collectConsoleErrors,
  createCustomer,
  createUser,
  passwordGrant,
  screenshotAtBothWidths,
  signIn,
  uniqueSuffix,
} from './fixtures';

/** An approved subscription the super admin enters for `customerId`. */
function subscription(currency: string, pricePerDevice: number, deviceLicenseCount: number, recurrenceType = 'MONTHLY') {
  return {
    orderDate: '2026-01-01T00:00:00.000Z',
    deviceLicenseCount,
    licenseType: 'PROFESSIONAL',
    licensePayType: 'SUBSCRIPTION',
    recurrence: { recurrenceType, frequency: 1 },
    pricePerDevice,
    currency,
    approved: true,
  };
}

test('the super admin reads the monthly recurring revenue per currency and a network owner’s invoice tables', async ({ page, request }) => {
  const errors = collectConsoleErrors(page);
  const token = (await passwordGrant(request)).access_token;
  const suffix = uniqueSuffix();
  const network = await createCustomer(request, token, `Invoice Network ${suffix}`);
  await api(request, token, 'POST', `/api/customer/${network.id}/promoteAsSubreseller`);
  const member = await createCustomer(request, token, `Invoice Member ${suffix}`);
  await api(request, token, 'PUT', `/api/customer/${member.id}/moveToSubreseller?subresellerId=${network.id}`);
  // Currencies of this run alone (other specs' orders may be in the same database): X…A and X…B are no real codes.
  const letter = String.fromCharCode(65 + Math.floor(Math.random() * 26));
  const [euros, dollars] = [`X${letter}A`, `X${letter}B`];
  await api(request, token, 'POST', `/api/licenseOrder?customerId=${network.id}`, subscription(euros, 12.345, 4));
  await api(request, token, 'POST', `/api/licenseOrder?customerId=${member.id}`, subscription(euros, 10, 6));
  await api(request, token, 'POST', `/api/licenseOrder?customerId=${member.id}`, subscription(dollars, 120, 1, 'YEARLY'));

  await signIn(page);
  await page.goto('/licences/invoices');
  await expect(page.getByRole('heading', { level: 1, name: 'Invoices' })).toBeVisible();
  // Every customer: this run's currencies among the others, rounded to cents when shown (49.38 + 60; 120 / 12).
  await expect(page.getByTestId('revenue').filter({ hasText: euros })).toContainText('109.38');
  await expect(page.getByTestId('revenue').filter({ hasText: dollars })).toContainText('10.00');

  // The network owner: its revenue, its own and its member's tables and the member's tier.
  await page.getByLabel('Search customers').fill(`Invoice Network ${suffix}`);
  await page.getByLabel('Customer', { exact: true }).selectOption({ label: `Invoice Network ${suffix}` });
  await expect(page).toHaveURL(new RegExp(`customerId=${network.id}`));
  await expect(page.getByRole('region', { name: 'Network owner' }).getByRole('row')).toHaveCount(2);
  await expect(page.getByTestId('revenue')).toHaveCount(2);
  await expect(page.getByTestId('revenue').filter({ hasText: euros })).toContainText('109.38');
  const members = page.getByRole('region', { name: 'Network members' });
  await expect(members.getByRole('table')).toHaveCount(2);
  await expect(members.getByRole('row', { name: /Professional 6/ })).toContainText('10.00');
  // A unit price keeps its four decimals; only amounts are rounded to cents.
  await expect(page.getByRole('region', { name: 'Network owner' }).getByRole('row', { name: /Professional 4/ })).toContainText('12.345');
  await expect(page.getByTestId('tier-ENTERPRISE')).toHaveText('1');

  // Another day: orders without an invoice start count on every day, so the sums stay.
  await page.getByLabel('Invoice date').fill('2027-03-01');
  await expect(page).toHaveURL(/date=2027-03-01/);
  await expect(page.getByTestId('revenue').filter({ hasText: dollars })).toContainText('10.00');
  await screenshotAtBothWidths(page, 'licence-invoices');
  expect(errors).toEqual([]);
});

test('a tenant’s owner is sent to the overview, not shown the invoices', async ({ page, request }) => {
  const token = (await passwordGrant(request)).access_token;
  const suffix = uniqueSuffix();
  const tenant = await createCustomer(request, token, `Invoice Tenant ${suffix}`);
  const owner = await createUser(request, token, tenant.id, 'OWNER', 'Invoice Owner', suffix);

  await signIn(page, owner.email, owner.password);
  await page.goto('/licences/invoices');
  await expect(page).toHaveURL((url) => url.pathname === '/');
  await expect(page.getByRole('heading', { name: 'Invoices' })).toHaveCount(0);
});
