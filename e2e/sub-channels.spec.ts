import { expect, test } from '@playwright/test';
import { api, collectConsoleErrors, collectFailedResponses, createCustomer, createFolder, createUser, passwordGrant, rootFolderId, screenshot, signIn, uniqueSuffix } from './fixtures';

test('an approver creates a sub-channel group and sub-channels of two types with dates, ranges and targeting, then edits, disables and deletes one', async ({ page, request }) => {
  test.setTimeout(150_000);
  const errors = collectConsoleErrors(page);
  const failures = collectFailedResponses(page);

  const suffix = uniqueSuffix();
  const admin = await passwordGrant(request);
  const customer = await createCustomer(request, admin.access_token, `Sub Tenant ${suffix}`);
  const q = `customerId=${customer.id}`;
  const approver = await createUser(request, admin.access_token, customer.id, 'APPROVER', 'Abby', suffix);
  await createFolder(request, admin.access_token, customer.id, await rootFolderId(request, admin.access_token, customer.id), 'Posters');
  const contentRoot = (await api<{ content: { id: string }[] }>(request, admin.access_token, 'GET', `/api/v2/contentGroup?${q}&search=${encodeURIComponent('parentId=NULL')}`)).content[0]!.id;
  const loop = await api<{ id: string }>(request, admin.access_token, 'POST', `/api/simpleLoop?${q}&contentGroupId=${contentRoot}`, {
    name: 'Headlines loop',
    simpleLoopType: 'NORMAL',
    version: '2.0',
    data: { loopData: { resolution: { width: 1920, height: 1080 } }, slides: [] },
  });

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

  // A sub-channel that plays a media folder, all its items per turn, in December but not over Christmas.
  await section.getByRole('button', { name: 'New sub-channel' }).click();
  const create = page.getByRole('dialog', { name: 'New sub-channel' });
  await expect(create.getByLabel('Plays', { exact: true }).locator('option')).toHaveCount(6);
  await create.getByLabel('Name').fill('Morning posters');
  await create.getByLabel('Plays', { exact: true }).selectOption('ASSETS_DYNAMIC');
  await create.getByRole('button', { name: 'Create sub-channel' }).click();
  await expect(create.getByText(/needs fileFolderAssignment/)).toBeVisible();
  await create.getByRole('complementary', { name: 'Library' }).getByRole('button', { name: 'Add Posters' }).click();
  await expect(create.getByRole('list', { name: 'Media folders to play' })).toContainText('Posters');
  await create.getByLabel('Items per turn').fill('0');
  await create.getByLabel('First day').fill('2026-12-01');
  await create.getByLabel('Last day').fill('2026-12-31');
  await create.getByRole('button', { name: 'Add date range' }).click();
  await create.getByLabel('Range 1 kind').selectOption('exclude');
  await create.getByLabel('Range 1 from').fill('2026-12-24');
  await create.getByLabel('Range 1 to').fill('2026-12-26');
  // Targeting: no folder means every screen of its channel; a screen tag narrows it.
  await expect(create.getByTestId('target-count')).toContainText('every screen the channel plays on');
  await create.getByLabel('Screen tags').fill('lobby');
  await create.getByLabel('Screen tags').press('Enter');
  await screenshot(page, 'sub-channel-create');
  await create.getByRole('button', { name: 'Create sub-channel' }).click();
  await expect(create).toBeHidden();
  const row = section.getByTestId('message-row').filter({ hasText: 'Morning posters' });
  await expect(row).toBeVisible();
  await expect(row.getByRole('cell', { name: 'Media folder: Posters' })).toBeVisible();
  await expect(row.getByText('All items')).toBeVisible();
  await expect(row.getByText('2026-12-01 – 2026-12-31 · 1 date range')).toBeVisible();
  await expect(row.getByText('Enabled')).toBeVisible();

  // A second one that plays one content, picked from the library.
  await section.getByRole('button', { name: 'New sub-channel' }).click();
  const second = page.getByRole('dialog', { name: 'New sub-channel' });
  await second.getByLabel('Name').fill('Headlines');
  await expect(second.getByLabel('Plays', { exact: true })).toHaveValue('CONTENT');
  const library = second.getByRole('complementary', { name: 'Library' });
  await library.getByRole('tab', { name: 'Slides and playlists' }).click();
  await library.getByRole('button', { name: 'Add Headlines loop' }).click();
  await expect(second.getByRole('list', { name: 'Slides and playlists to play' })).toContainText('Headlines loop');
  await second.getByLabel('Order').fill('1');
  await second.getByRole('button', { name: 'Create sub-channel' }).click();
  await expect(second).toBeHidden();
  await expect(section.getByTestId('message-row').filter({ hasText: 'Headlines' })).toContainText('Content: Headlines loop');
  await screenshot(page, 'sub-channels');

  // The API holds what the page shows.
  const groups = await api<{ content: { id: number; name: string }[] }>(request, admin.access_token, 'GET', `/api/messageGroup?${q}`);
  const groupId = groups.content.find((g) => g.name === 'Ticker')!.id;
  const messages = await api<{ content: Record<string, unknown>[] }>(
    request,
    admin.access_token,
    'GET',
    `/api/v2/message?${q}&messageGroupId=${groupId}&sort=weight,asc&select=name,type,saturation,enabled,validFrom,contentId,affectedDateRanges,deviceTagCondition,fileFolderAssignments`,
  );
  expect(messages.content).toEqual([
    expect.objectContaining({ name: 'Headlines', type: 'CONTENT', contentId: loop.id }),
    expect.objectContaining({
      name: 'Morning posters',
      type: 'ASSETS_DYNAMIC',
      saturation: 0,
      enabled: true,
      validFrom: Date.UTC(2026, 11, 1),
      affectedDateRanges: expect.objectContaining({ intervals: [expect.objectContaining({ from: '2026-12-24', to: '2026-12-26', isExcluded: true })] }),
      deviceTagCondition: expect.objectContaining({ tags: ['lobby'] }),
      fileFolderAssignments: [expect.objectContaining({ name: 'Posters' })],
    }),
  ]);

  // Disable it, then rename it and clear its last day.
  await row.getByRole('button', { name: 'Actions for Morning posters' }).click();
  await page.getByRole('menuitem', { name: 'Disable' }).click();
  await expect(row.getByText('Disabled')).toBeVisible();
  await row.getByRole('button', { name: 'Actions for Morning posters' }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit sub-channel' });
  await expect(edit.getByRole('list', { name: 'Media folders to play' })).toContainText('Posters');
  await expect(edit.getByLabel('Plays', { exact: true })).toBeDisabled();
  await expect(edit.getByLabel('Range 1 kind')).toHaveValue('exclude');
  // Saved without a folder, it plays on every screen of its channel: the root folder, named as in the tree.
  await expect(edit.getByRole('list', { name: 'Chosen folders' })).toHaveText('All screens');
  await edit.getByLabel('Name').fill('Evening posters');
  await edit.getByLabel('Last day').fill('');
  await screenshot(page, 'sub-channel-edit');
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(edit).toBeHidden();
  const renamed = section.getByTestId('message-row').filter({ hasText: 'Evening posters' });
  await expect(renamed.getByText('2026-12-01 – … · 1 date range')).toBeVisible();
  await expect(renamed.getByText('Disabled')).toBeVisible();
  await screenshot(page, 'sub-channels-edited');

  // Delete it.
  await renamed.getByRole('button', { name: 'Actions for Evening posters' }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await page.getByRole('alertdialog', { name: 'Delete sub-channel?' }).getByRole('button', { name: 'Delete sub-channel' }).click();
  await expect(section.getByTestId('message-row')).toHaveCount(1);

  // The one failed request is the first save's 400 (no folder yet), shown on the field.
  expect(errors.filter((e) => !e.includes('status of 400'))).toEqual([]);
  expect(failures.filter((f) => !f.includes('400'))).toEqual([]);
});
