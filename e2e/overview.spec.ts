import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { collectConsoleErrors, createCustomer, createUser, passwordGrant, screenshot, signIn, uniqueSuffix, uploadFile } from './fixtures';

/* The overview shows what exists (issue 10, console point 7), each part linking to its page. */

const PNG = readFileSync(fileURLToPath(new URL('./fixtures/poster.png', import.meta.url)));

test('the overview shows storage, media by type, users and recent activity, as each role may see them', async ({ page, request }) => {
  test.setTimeout(180_000);
  const errors = collectConsoleErrors(page);
  const suffix = uniqueSuffix();
  const admin = (await passwordGrant(request)).access_token;
  const customer = await createCustomer(request, admin, `Overview ${suffix}`);
  const owner = await createUser(request, admin, customer.id, 'OWNER', 'Orla Owner', suffix);
  const editor = await createUser(request, admin, customer.id, 'EDITOR', 'Eli Editor', suffix);
  await uploadFile(request, admin, customer.id, { name: 'one.png', mimeType: 'image/png', buffer: PNG });
  await uploadFile(request, admin, customer.id, { name: 'two.png', mimeType: 'image/png', buffer: PNG });
  await uploadFile(request, admin, customer.id, { name: 'data.json', mimeType: 'application/json', buffer: Buffer.from('{"a":1}') });

  // The tenant's OWNER: everything, each linking on.
  await signIn(page, owner.email, owner.password);
  await expect(page.getByTestId('overview-users')).toHaveText('2People who can sign in to this tenant.');
  await expect(page.getByTestId('overview-storage')).toContainText(/\d+(\.\d)? KB/);
  const media = page.getByTestId('overview-media');
  await expect(media).toContainText('3 files');
  await expect(page.getByTestId('overview-screens')).toContainText('0 of 0 online');
  await expect(page.getByTestId('overview-screens')).toContainText('No screens claimed yet.');
  const byType = page.getByRole('list', { name: 'Files by type' });
  await expect(byType.getByRole('link', { name: /Images/ })).toContainText('2');
  await expect(byType.getByRole('link', { name: /JSON data/ })).toContainText('1');
  await expect(byType.getByRole('link', { name: /Videos/ })).toContainText('0');
  const activity = page.getByRole('list', { name: 'Latest changes' });
  await expect(activity.getByRole('listitem').first()).toBeVisible();
  await screenshot(page, 'overview-owner');
  await byType.getByRole('link', { name: /Images/ }).click();
  await expect(page).toHaveURL(/\/media\?type=image&deep=1/);
  await expect(page.getByLabel('Type')).toHaveValue('image');
  await expect(page.getByTestId('file-card')).toHaveCount(2);
  await page.goBack();
  await page.getByRole('link', { name: 'View the audit log' }).click();
  await expect(page.getByRole('heading', { name: 'Audit log', level: 1 })).toBeVisible();
  await page.goBack();
  await page.getByRole('link', { name: 'Open the media library' }).first().click();
  await expect(page.getByRole('heading', { name: 'Media', level: 1 })).toBeVisible();
  expect(errors).toEqual([]);

  // An EDITOR may not read the audit log: the rest stays.
  await page.context().clearCookies();
  await signIn(page, editor.email, editor.password);
  await expect(page.getByTestId('overview-media')).toContainText('3 files');
  await expect(page.getByTestId('overview-storage')).toBeVisible();
  await expect(page.getByText('Recent activity')).toHaveCount(0);
  await screenshot(page, 'overview-editor');
  expect(errors).toEqual([]);

  // ADMIN under "All tenants": media need a tenant, activity spans every tenant and names it.
  await page.context().clearCookies();
  await signIn(page);
  await expect(page.getByTestId('overview-tenant')).toHaveText('All tenants');
  await expect(page.getByTestId('overview-media-choose-tenant')).toBeVisible();
  await expect(page.getByTestId('overview-media')).toHaveCount(0);
  await expect(page.getByRole('list', { name: 'Latest changes' }).getByRole('listitem').first()).toBeVisible();
  await screenshot(page, 'overview-admin-all-tenants');
  expect(errors).toEqual([]);
});
