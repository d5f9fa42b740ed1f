import { expect, test } from '@playwright/test';
import {
  api,
  collectConsoleErrors,
  collectFailedResponses,
  createCustomer,
  createFolder,
  createUser,
  passwordGrant,
  rootFolderId,
  screenshot,
  signIn,
  uniqueSuffix,
} from './fixtures';
import { startSimulator } from './simulator';

test('an approver creates a sub-channel group and sub-channels of two types with dates, ranges and targeting, then edits, disables and deletes one', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const errors = collectConsoleErrors(page);
  const failures = collectFailedResponses(page);

  const suffix = uniqueSuffix();
  const admin = await passwordGrant(request);
  const customer = await createCustomer(request, admin.access_token, `Sub Tenant ${suffix}`);
  const q = `customerId=${customer.id}`;
  const approver = await createUser(request, admin.access_token, customer.id, 'APPROVER', 'Abby', suffix);
  await createFolder(request, admin.access_token, customer.id, await rootFolderId(request, admin.access_token, customer.id), 'Posters');
  const contentRoot = (
    await api<{ content: { id: string }[] }>(
      request,
      admin.access_token,
      'GET',
      `/api/v2/contentGroup?${q}&search=${encodeURIComponent('parentId=NULL')}`,
    )
  ).content[0]!.id;
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
      affectedDateRanges: expect.objectContaining({
        intervals: [expect.objectContaining({ from: '2026-12-24', to: '2026-12-26', isExcluded: true })],
      }),
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

test('a team-scoped content manager creates a sub-channel group in the team and a channel of it, which has nothing to play until a sub-channel gives it something', async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(150_000);
  const errors = collectConsoleErrors(page);
  const failures = collectFailedResponses(page);
  const suffix = uniqueSuffix();
  const admin = await passwordGrant(request);
  const customer = await createCustomer(request, admin.access_token, `Sub team ${suffix}`);
  const q = `customerId=${customer.id}`;
  const approver = await createUser(request, admin.access_token, customer.id, 'APPROVER', 'Tom Team', suffix);
  const team = await api<{ id: string; name: string }>(request, admin.access_token, 'POST', `/api/team?${q}`, {
    name: `Newsroom ${suffix}`,
  });
  await api(request, admin.access_token, 'PUT', `/api/team/updateUserAssignments?teamId=${team.id}&${q}`, {
    resourcesToAdd: [{ id: approver.id, readOnly: false }],
  });
  // One screen of the team, in a folder of the team (what the team's channels may target).
  const screensRoot = (
    await api<{ content: { id: string }[] }>(
      request,
      admin.access_token,
      'GET',
      `/api/v2/deviceGroup?${q}&search=${encodeURIComponent('parentId=NULL')}`,
    )
  ).content[0]!.id;
  const hall = await api<{ id: string }>(request, admin.access_token, 'POST', `/api/deviceGroup/${screensRoot}?${q}`, {
    name: 'Newsroom screens',
    type: 'NORMAL',
  });
  await api(request, admin.access_token, 'PUT', `/api/team/updateDeviceGroupAssignments?teamId=${team.id}&${q}`, {
    resourcesToAdd: [{ id: hall.id, readOnly: false }],
  });
  const contentRoot = (
    await api<{ content: { id: string }[] }>(
      request,
      admin.access_token,
      'GET',
      `/api/v2/contentGroup?${q}&search=${encodeURIComponent('parentId=NULL')}`,
    )
  ).content[0]!.id;
  const loop = await api<{ id: string }>(request, admin.access_token, 'POST', `/api/simpleLoop?${q}&contentGroupId=${contentRoot}`, {
    name: 'Newsroom loop',
    simpleLoopType: 'NORMAL',
    version: '2.0',
    data: { loopData: { resolution: { width: 1920, height: 1080 } }, slides: [] },
  });
  const sim = startSimulator(baseURL!);
  try {
    await expect.poll(() => sim.code(), { timeout: 20_000, message: sim.output() }).toMatch(/^\d{4}$/);
    const device = await api<{ id: string }>(request, admin.access_token, 'POST', `/api/v2/device/assignToCustomer?${q}`, {
      activationCode: sim.code(),
      deviceName: 'Newsroom 1',
      timeZone: 'UTC',
      licenseStatus: 'UN_LICENSED',
    });
    await api(request, admin.access_token, 'POST', `/api/v2/device/move?${q}`, { deviceIds: [device.id], targetGroupId: hall.id });
    await api(request, admin.access_token, 'PUT', `/api/team/updateDeviceAssignments?teamId=${team.id}&${q}`, {
      resourcesToAdd: [{ id: device.id, readOnly: false }],
    });

    await signIn(page, approver.email, approver.password);
    await page.goto('/sub-channels');
    await page.getByRole('button', { name: 'New group' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New sub-channel group' });
    // The user's own team is chosen already; without one the form says so before asking the API.
    const box = dialog.getByRole('checkbox', { name: team.name });
    await expect(box).toBeChecked();
    await dialog.getByLabel('Name').fill('Newsroom ticker');
    await box.uncheck();
    await dialog.getByRole('button', { name: 'Create group' }).click();
    await expect(dialog.getByText('Choose at least one of your teams', { exact: true })).toBeVisible();
    await box.check();
    await screenshot(page, 'sub-channel-group-team');
    await dialog.getByRole('button', { name: 'Create group' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('button', { name: 'Newsroom ticker', exact: true })).toBeVisible();
    const groups = await api<{ content: { id: number; name: string }[] }>(request, admin.access_token, 'GET', `/api/messageGroup?${q}`);
    const group = groups.content.find((g) => g.name === 'Newsroom ticker')!;
    const inTeam = await api<Array<{ id: string | number }> | { content?: Array<{ id: string | number }> }>(
      request,
      admin.access_token,
      'GET',
      `/api/team/messageGroupAssignments?teamId=${team.id}&${q}`,
    );
    expect(JSON.stringify(inTeam)).toContain(String(group.id));

    // A channel of the group, in the team: it has screens but nothing to play yet.
    await page.goto('/channels/new');
    await page.getByLabel('Name').fill('Newsroom channel');
    await page.getByLabel('Type', { exact: true }).selectOption('MESSAGE_GROUP');
    await page.getByRole('group', { name: 'Message groups' }).getByRole('checkbox', { name: 'Newsroom ticker' }).check();
    await page.getByRole('navigation', { name: 'Screen folders' }).getByTestId('device-folder-Newsroom screens').click();
    await expect(page.getByRole('group', { name: 'Teams', exact: true }).getByRole('checkbox', { name: team.name })).toBeChecked();
    await page.getByLabel('One item of a turn is').selectOption('MESSAGE_ITEM');
    await page.getByRole('button', { name: 'Create channel' }).click();
    await expect(page).toHaveURL(/\/channels$/);
    const row = page.getByRole('row').filter({ hasText: 'Newsroom channel' });
    await expect(row).toContainText('plays on 1 screen');
    await expect(row).toContainText('Nothing to play');
    await screenshot(page, 'channels-nothing-to-play');
    const saved = await api<{
      content: Array<{ id: number; playbackSlotItemType?: string; teamAccessList?: { teams: Array<{ id: string }> } }>;
    }>(
      request,
      admin.access_token,
      'GET',
      `/api/v2/campaign?${q}&search=${encodeURIComponent('name=Newsroom channel')}&select=playbackSlotItemType,teamAccessList`,
    );
    expect(saved.content).toEqual([
      expect.objectContaining({
        playbackSlotItemType: 'MESSAGE_ITEM',
        teamAccessList: expect.objectContaining({ teams: [expect.objectContaining({ id: team.id })] }),
      }),
    ]);

    // A sub-channel with content: the channel is on air, in the list and in its editor.
    await api(request, admin.access_token, 'POST', `/api/message?${q}`, {
      name: 'Headlines',
      version: '2.0',
      messageGroupId: group.id,
      type: 'CONTENT',
      contentId: loop.id,
    });
    await page.reload();
    await expect(row).toContainText('On air now');
    await row.getByRole('link', { name: 'Newsroom channel' }).click();
    await expect(page.getByTestId('channel-next-airing')).toHaveText('On air now');
    await expect(page.getByLabel('One item of a turn is')).toHaveValue('MESSAGE_ITEM');
    // Once chosen it can be changed, not cleared (the API has no reset for it).
    await expect(page.getByLabel('One item of a turn is').locator('option[value=""]')).toBeDisabled();
    await screenshot(page, 'channel-editor-on-air');
  } finally {
    sim.stop();
  }
  expect(errors).toEqual([]);
  expect(failures).toEqual([]);
});
