import { expect, test } from '@playwright/test';
import { collectConsoleErrors, collectFailedResponses, createCustomer, createUser, passwordGrant, screenshot, signIn, uniqueSuffix } from './fixtures';

const CSV_HEADER = 'startedAt,endedAt,durationMs,deviceName,campaignName,contentName,fileName\r\n';

test('a technician creates and edits an advertiser, and hands out, copies, uses and disables its proof-of-play link', async ({ page, context, request, baseURL }) => {
  test.setTimeout(120_000);
  const errors = collectConsoleErrors(page);
  const failures = collectFailedResponses(page);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });

  const suffix = uniqueSuffix();
  const admin = await passwordGrant(request);
  const customer = await createCustomer(request, admin.access_token, `Adv Tenant ${suffix}`);
  const tech = await createUser(request, admin.access_token, customer.id, 'TECHNICIAN', 'Tess', suffix);

  await signIn(page, tech.email, tech.password);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: 'Advertisers' }).click();
  await expect(page.getByRole('heading', { name: 'Advertisers', level: 1 })).toBeVisible();
  await expect(page.getByTestId('advertisers-empty')).toBeVisible();

  // Create, with a validity.
  await page.getByRole('button', { name: 'New advertiser' }).first().click();
  const create = page.getByRole('dialog', { name: 'New advertiser' });
  await create.getByLabel('Name').fill('A name that is far too long for it');
  await create.getByRole('button', { name: 'Create advertiser' }).click();
  await expect(create.getByText('At most 25 characters', { exact: true })).toBeVisible();
  await create.getByLabel('Name').fill('Acme Coffee');
  await create.getByLabel('Comment').fill('Breakfast slots');
  await create.getByLabel('First day').fill('2026-12-01');
  await create.getByLabel('Last day').fill('2026-12-31');
  await create.getByLabel('Time zone').selectOption('Europe/Berlin');
  await create.getByLabel('Schedule (cron)').fill('0 7-10 * * MON-FRI');
  await screenshot(page, 'advertiser-create');
  await create.getByRole('button', { name: 'Create advertiser' }).click();
  await expect(create).toBeHidden();
  const row = page.getByRole('row').filter({ hasText: 'Acme Coffee' });
  await expect(row).toBeVisible();
  await expect(row.getByText('Disabled')).toBeVisible();
  await expect(row.getByText('2026-12-01 – 2026-12-31 · Europe/Berlin · 0 7-10 * * MON-FRI')).toBeVisible();
  await expect(row.getByText('Breakfast slots')).toBeVisible();

  // Edit: enable it and rename.
  await row.getByRole('button', { name: 'Actions for Acme Coffee' }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit advertiser' });
  await expect(edit.getByLabel('Time zone')).toHaveValue('Europe/Berlin');
  await edit.getByLabel('Name').fill('Acme Coffee Co');
  await edit.getByLabel('Enabled').check();
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(edit).toBeHidden();
  const edited = page.getByRole('row').filter({ hasText: 'Acme Coffee Co' });
  await expect(edited.getByText('Enabled')).toBeVisible();
  await screenshot(page, 'advertisers-list');

  // Proof-of-play links: enable, copy, fetch the CSV.
  await edited.getByRole('button', { name: 'Actions for Acme Coffee Co' }).click();
  await page.getByRole('menuitem', { name: 'Proof-of-play links' }).click();
  const links = page.getByRole('dialog', { name: 'Proof-of-play links' });
  await expect(links.getByTestId('proof-of-play-state')).toHaveText('Links are disabled.');
  await links.getByRole('button', { name: 'Enable links' }).click();
  await expect(links.getByTestId('proof-of-play-state')).toHaveText('Links are enabled.');
  const field = links.getByLabel('CSV export URL');
  await expect(field).toHaveValue(/\/public-api\/adv\/proof-of-play\/history\/export\/csv\?token=/);
  const url = await field.inputValue();
  await links.getByRole('button', { name: 'Copy the export URL' }).click();
  await expect(links.getByRole('button', { name: 'Copy the export URL' })).toHaveText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
  await screenshot(page, 'advertiser-links');

  const csv = await request.get(url);
  expect(csv.status()).toBe(200);
  expect(csv.headers()['content-type']).toMatch(/^text\/csv/);
  expect(await csv.text()).toBe(CSV_HEADER);

  // The URL is shown again when the dialog is opened again.
  await links.getByRole('button', { name: 'Close' }).click();
  await expect(links).toBeHidden();
  await expect(edited.getByText('Link on')).toBeVisible();
  await edited.getByRole('button', { name: 'Actions for Acme Coffee Co' }).click();
  await page.getByRole('menuitem', { name: 'Proof-of-play links' }).click();
  await expect(links.getByLabel('CSV export URL')).toHaveValue(url);
  await expect(links.getByRole('button', { name: 'Copy the export URL' })).toHaveText('Copy');

  // Disable: the URL stops working.
  await links.getByRole('button', { name: 'Disable links' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Disable the links?' });
  await confirm.getByRole('button', { name: 'Disable links' }).click();
  await expect(confirm).toBeHidden();
  await expect(links.getByTestId('proof-of-play-state')).toHaveText('Links are disabled.');
  await expect(links.getByLabel('CSV export URL')).toHaveCount(0);
  expect((await request.get(url)).status()).toBe(401);
  await links.getByRole('button', { name: 'Close' }).click();

  // An administrator looking at all tenants sees whose advertiser it is, by name.
  await context.clearCookies();
  await signIn(page);
  await page.goto('/advertisers');
  const across = page.getByRole('row').filter({ hasText: 'Acme Coffee Co' });
  await expect(across.getByText(`Adv Tenant ${suffix}`, { exact: true })).toBeVisible();

  expect(failures).toEqual([]);
  expect(errors).toEqual([]);
});
