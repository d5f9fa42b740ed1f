import { expect, test } from '@playwright/test';
import { api, collectConsoleErrors, collectFailedResponses, createCustomer, createFolder, createUser, passwordGrant, rootFolderId, screenshot, signIn, uniqueSuffix } from './fixtures';

test('an approver creates a sub-channel group and a sub-channel that plays a media folder, then edits, disables and deletes it', async ({ page, request }) => {
  test.setTimeout(120_000);
  const errors = collectConsoleErrors(page);
  const failures = collectFailedResponses(page);

  const suffix = uniqueSuffix();
  const admin = await passwordGrant(request);
  const customer = await createCustomer(request, admin.access_token, `Sub Tenant ${suffix}`);
  const approver = await createUser(request, admin.access_token, customer.id, 'APPROVER', 'Abby', suffix);
  await createFolder(request, admin.access_token, customer.id, await rootFolderId(request, admin.access_token, customer.id), 'Posters');

  await signIn(page, approver.email, approver.password);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: 'Sub-channels' }).click();
  await expect(page.getByRole('heading', { name: 'Sub-channels', level: 1 })).toBeVisible();
  await expect(page.getByTestId('message-groups-empty')).toBeVisible();

  // A group.
  await page.getByRole('button', { name: 'New group' }).first().click();
  const newGroup = page.getByRole('dialog', { name: 'New sub-channel group' });
  await newGroup.getByLabel('Name').fill('Ticker');
  await newGroup.getByLabel('Order').fill('2');
  await newGroup.getByRole('button', { name: 'Create group' }).click();
  await expect(newGroup).toBeHidden();
  await page.getByRole('button', { name: 'Ticker', exact: true }).click();
  const section = page.getByTestId('group-messages');
  await expect(section.getByRole('heading', { name: 'Sub-channels of Ticker' })).toBeVisible();
  await expect(section.getByText('No sub-channels in this group yet.')).toBeVisible();

  // A sub-channel that plays the media folder, all its items per turn, in December.
  await section.getByRole('button', { name: 'New sub-channel' }).click();
  const create = page.getByRole('dialog', { name: 'New sub-channel' });
  await create.getByLabel('Name').fill('Morning posters');
  await create.getByLabel('Plays').selectOption('ASSETS_DYNAMIC');
  await create.getByRole('button', { name: 'Create sub-channel' }).click();
  await expect(create.getByText('Choose the media folder it plays')).toBeVisible();
  await create.getByLabel('Media folder').selectOption({ label: 'Posters' });
  await create.getByLabel('Items per turn').fill('0');
  await create.getByLabel('First day').fill('2026-12-01');
  await create.getByLabel('Last day').fill('2026-12-31');
  await screenshot(page, 'sub-channel-create');
  await create.getByRole('button', { name: 'Create sub-channel' }).click();
  await expect(create).toBeHidden();
  const row = section.getByTestId('message-row').filter({ hasText: 'Morning posters' });
  await expect(row).toBeVisible();
  await expect(row.getByRole('cell', { name: 'Media folder: Posters' })).toBeVisible();
  await expect(row.getByText('All items')).toBeVisible();
  await expect(row.getByText('2026-12-01 – 2026-12-31')).toBeVisible();
  await expect(row.getByText('Enabled')).toBeVisible();
  await screenshot(page, 'sub-channels');

  // The API holds what the page shows.
  const groups = await api<{ content: { id: number; name: string }[] }>(request, admin.access_token, 'GET', `/api/messageGroup?customerId=${customer.id}`);
  const groupId = groups.content.find((g) => g.name === 'Ticker')!.id;
  const messages = await api<{ content: Record<string, unknown>[] }>(request, admin.access_token, 'GET', `/api/v2/message?customerId=${customer.id}&messageGroupId=${groupId}`);
  expect(messages.content).toEqual([expect.objectContaining({ name: 'Morning posters', type: 'ASSETS_DYNAMIC', saturation: 0, enabled: true, validFrom: Date.UTC(2026, 11, 1) })]);

  // Disable it, then rename it.
  await row.getByRole('button', { name: 'Actions for Morning posters' }).click();
  await page.getByRole('menuitem', { name: 'Disable' }).click();
  await expect(row.getByText('Disabled')).toBeVisible();
  await row.getByRole('button', { name: 'Actions for Morning posters' }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit sub-channel' });
  await expect(edit.getByLabel('Media folder')).toHaveValue(/.+/);
  await edit.getByLabel('Name').fill('Evening posters');
  await edit.getByLabel('Last day').fill('');
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(edit).toBeHidden();
  const renamed = section.getByTestId('message-row').filter({ hasText: 'Evening posters' });
  await expect(renamed.getByText('2026-12-01 – …')).toBeVisible();
  await expect(renamed.getByText('Disabled')).toBeVisible();
  await screenshot(page, 'sub-channels-edited');

  // Delete it.
  await renamed.getByRole('button', { name: 'Actions for Evening posters' }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await page.getByRole('alertdialog', { name: 'Delete sub-channel?' }).getByRole('button', { name: 'Delete sub-channel' }).click();
  await expect(section.getByText('No sub-channels in this group yet.')).toBeVisible();

  expect(errors).toEqual([]);
  expect(failures).toEqual([]);
});
