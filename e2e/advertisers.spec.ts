import { expect, test } from '@playwright/test';
import {
  collectConsoleErrors,
  collectFailedResponses,
  createCustomer,
  createUser,
  passwordGrant,
  screenshot,
  signIn,
  uniqueSuffix,
} from './fixtures';

const CSV_HEADER = 'startedAt,endedAt,durationMs,deviceName,campaignName,contentName,fileName\r\n';

test("a technician creates and edits an advertiser, and hands out, copies, reads, uses and disables its proof-of-play link; a disabled advertiser's link is refused", async ({
  page,
  context,
  request,
  baseURL,
}) => {
  test.setTimeout(240_000);
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
  // The console's form starts enabled and says what disabled means.
  await expect(create.getByLabel('Enabled')).toBeChecked();
  await expect(create.getByText('While disabled, new plays are not credited to it and the link is refused.')).toBeVisible();
  await create.getByLabel('Enabled').uncheck();
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
  const field = links.getByLabel('Proof-of-play link');
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

  // Opened in a browser: a readable page (no console around it), the CSV as a download.
  const reader = await context.browser()!.newContext({ baseURL });
  const publicPage = await reader.newPage();
  const publicErrors = collectConsoleErrors(publicPage);
  try {
    for (const width of [1440, 1024]) {
      await publicPage.setViewportSize({ width, height: 900 });
      await publicPage.goto(url);
      await expect(publicPage.getByRole('heading', { name: 'Proof of play', level: 1 })).toBeVisible();
      await expect(publicPage.getByText(/^Acme Coffee Co · \d{4}-\d\d-\d\d to \d{4}-\d\d-\d\d \(UTC\)$/)).toBeVisible();
      await expect(publicPage.locator('[data-total="plays"]')).toHaveText('0');
      await expect(publicPage.getByRole('heading', { name: 'Plays by day' })).toBeVisible();
      await expect(publicPage.getByRole('heading', { name: 'Plays by screen' })).toBeVisible();
      await expect(publicPage.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
      expect(await publicPage.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await screenshot(publicPage, `advertiser-public-page-${width}`);
    }
    await publicPage.getByRole('link', { name: '7 days' }).click();
    await expect(publicPage.getByText('7 days', { exact: true })).toHaveAttribute('aria-current', 'page');
    const href = await publicPage.getByRole('link', { name: 'Download CSV' }).getAttribute('href');
    const downloaded = await request.get(new URL(href!, url).toString(), { headers: { accept: 'text/html' } });
    expect(downloaded.headers()['content-type']).toMatch(/^text\/csv/);
    expect(await downloaded.text()).toBe(CSV_HEADER);
    expect(publicErrors).toEqual([]);
  } finally {
    await reader.close();
  }

  // Disabling the advertiser (not only its links): its link is refused until it is enabled again.
  await links.getByRole('button', { name: 'Close' }).click();
  await edited.getByRole('button', { name: 'Actions for Acme Coffee Co' }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  await edit.getByLabel('Enabled').uncheck();
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(edit).toBeHidden();
  await expect(edited.getByText('Disabled')).toBeVisible();
  const refused = await request.get(url);
  expect(refused.status()).toBe(403);
  expect((await refused.json()).key).toBe('proofOfPlay.error.advertiserDisabled');
  await edited.getByRole('button', { name: 'Actions for Acme Coffee Co' }).click();
  await page.getByRole('menuitem', { name: 'Proof-of-play links' }).click();
  await expect(links.getByText('This advertiser is disabled.')).toBeVisible();
  await links.getByRole('button', { name: 'Close' }).click();
  await edited.getByRole('button', { name: 'Actions for Acme Coffee Co' }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  await edit.getByLabel('Enabled').check();
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(edit).toBeHidden();
  expect((await request.get(url)).status()).toBe(200);
  // The row says the link is on (checked before a dialog hides the rows from the accessibility tree).
  await expect(edited.getByText('Link on')).toBeVisible();
  await edited.getByRole('button', { name: 'Actions for Acme Coffee Co' }).click();
  await page.getByRole('menuitem', { name: 'Proof-of-play links' }).click();

  // The URL is shown again when the dialog is opened again.
  await expect(links.getByLabel('Proof-of-play link')).toHaveValue(url);
  await expect(links.getByRole('button', { name: 'Copy the export URL' })).toHaveText('Copy');

  // Disable: the URL stops working.
  await links.getByRole('button', { name: 'Disable links' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Disable the links?' });
  await confirm.getByRole('button', { name: 'Disable links' }).click();
  await expect(confirm).toBeHidden();
  await expect(links.getByTestId('proof-of-play-state')).toHaveText('Links are disabled.');
  await expect(links.getByLabel('Proof-of-play link')).toHaveCount(0);
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
