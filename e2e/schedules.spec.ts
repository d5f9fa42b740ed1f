import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import {
  api,
  collectConsoleErrors,
  collectFailedResponses,
  createCustomer,
  createUser,
  passwordGrant,
  screenshot,
  signIn,
  uniqueSuffix,
} from './fixtures';

/*
 * The schedules calendar: an approver picks a screen folder, sees a schedule inherited from the root folder,
 * creates one by dragging over the week, moves it by dragging the block to another day and hour, and the API
 * holds the moved interval. The week is fixed (7–13 December 2026) so the test does not depend on today.
 */

type Interval = { from?: string; fromTime?: string; to?: string; toTime?: string; isExcluded: boolean };
type ScheduleRow = { id: number; name: string; affectedDateRanges?: { intervals: Interval[] }; deviceGroupAssignments?: { id: string }[] };

const HOUR_PX = 44;

/** A tenant's root content and screen folders and one playlist in it, made through the API with `token` (`q`: the tenant query). */
async function seedTenant(request: APIRequestContext, token: string, q: string, loopName: string) {
  const rootOf = async (kind: string) =>
    (await api<{ content: { id: string }[] }>(request, token, 'GET', `/api/v2/${kind}?${q}&search=${encodeURIComponent('parentId=NULL')}`))
      .content[0]!.id;
  const screensRoot = await rootOf('deviceGroup');
  const loop = await api<{ id: string }>(request, token, 'POST', `/api/simpleLoop?${q}&contentGroupId=${await rootOf('contentGroup')}`, {
    name: loopName,
    simpleLoopType: 'NORMAL',
    version: '2.0',
    data: { loopData: { resolution: { width: 1920, height: 1080 } }, slides: [] },
  });

  return { screensRoot, loop };
}

/** A schedule (campaign level TOP) of one content for one folder in one interval, made through the API. */
function seedSchedule(
  request: APIRequestContext,
  token: string,
  q: string,
  schedule: { name: string; contentId: string; folderId: string; interval: Interval },
) {
  return api(request, token, 'POST', `/api/campaign?${q}`, {
    name: schedule.name,
    level: 'TOP',
    type: 'CONTENT',
    version: '2.0',
    contentShuffleMode: 'SERIAL',
    contentAssignment: { assignments: [{ contentId: schedule.contentId, weight: 0 }] },
    deviceGroupAssignment: { assignments: [{ deviceGroupId: schedule.folderId }] },
    affectedDateRanges: { intervals: [schedule.interval] },
  });
}

/** A point in the week grid: day column (0 = Monday) and time in hours. */
async function gridPoint(page: Page, column: number, hours: number) {
  const box = (await page.getByTestId('week-grid').boundingBox())!;

  return { x: box.x + (box.width / 7) * (column + 0.5), y: box.y + hours * HOUR_PX };
}

test('an approver drags a schedule into the week, moves it to another day and the API holds the move', async ({ page, request }) => {
  test.setTimeout(120_000);
  const errors = collectConsoleErrors(page);
  const failures = collectFailedResponses(page);
  const suffix = uniqueSuffix();
  const admin = await passwordGrant(request);
  const customer = await createCustomer(request, admin.access_token, `Schedules ${suffix}`);
  const approver = await createUser(request, admin.access_token, customer.id, 'APPROVER', 'Sam Scheduler', suffix);
  const token = (await passwordGrant(request, approver.email, approver.password)).access_token;

  const { screensRoot, loop } = await seedTenant(request, token, '', 'Breakfast menu');
  const lobby = await api<{ id: string }>(
    request,
    admin.access_token,
    'POST',
    `/api/deviceGroup/${screensRoot}?customerId=${customer.id}`,
    { name: 'Lobby', type: 'NORMAL' },
  );
  // A schedule of every screen: the Lobby plays it too, so the Lobby's calendar shows it as inherited.
  const interval = { from: '2026-12-09', fromTime: '12:00', to: '2026-12-09', toTime: '14:00', isExcluded: false };
  await seedSchedule(request, token, '', { name: 'Company news', contentId: loop.id, folderId: screensRoot, interval });

  await signIn(page, approver.email, approver.password);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Schedules' }).click();
  await expect(page.getByRole('heading', { name: 'Schedules', level: 1 })).toBeVisible();
  await page.goto(`/schedules?folder=${lobby.id}&date=2026-12-09`);
  await expect(page.getByTestId('calendar-title')).toContainText('2026');
  const inherited = page.getByTestId('legend-item').filter({ hasText: 'Company news' });
  await expect(inherited).toContainText('inherited from All screens');
  await expect(page.getByRole('button', { name: 'Company news, 2026-12-09 12:00–14:00, inherited' })).toBeVisible();

  // Drag over Tuesday 09:00–11:00.
  const from = await gridPoint(page, 1, 9);
  const to = await gridPoint(page, 1, 11);
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(to.x, to.y - 20, { steps: 4 });
  await page.mouse.move(to.x, to.y, { steps: 2 });
  await expect(page.getByTestId('create-preview')).toBeVisible();
  await page.mouse.up();

  const dialog = page.getByRole('dialog', { name: 'New schedule' });
  await expect(dialog.getByLabel('Starts')).toHaveValue('2026-12-08T09:00');
  await expect(dialog.getByLabel('Ends')).toHaveValue('2026-12-08T11:00');
  await expect(dialog.getByText('Plays on the screens in Lobby.')).toBeVisible();
  await dialog.getByLabel('Name').fill('Morning menu');
  await dialog.getByLabel('Content to play').selectOption({ label: 'Breakfast menu' });
  await screenshot(page, 'schedule-create');
  await dialog.getByRole('button', { name: 'Create schedule' }).click();
  await expect(dialog).toBeHidden();
  const block = page.getByRole('button', { name: 'Morning menu, 2026-12-08 09:00–11:00' });
  await expect(block).toBeVisible();
  await screenshot(page, 'schedules-week');

  const find = async () =>
    (
      await api<{ content: ScheduleRow[] }>(
        request,
        token,
        'GET',
        `/api/v2/campaign?search=${encodeURIComponent('name=Morning menu')}&select=${encodeURIComponent('name,affectedDateRanges,deviceGroupAssignments,level')}`,
      )
    ).content[0];
  const created = await find();
  expect(created?.affectedDateRanges?.intervals).toEqual([
    { from: '2026-12-08', fromTime: '09:00', to: '2026-12-08', toTime: '11:00', isExcluded: false },
  ]);
  expect(created?.deviceGroupAssignments?.map((a) => a.id)).toEqual([lobby.id]);

  // Move it: Tuesday 10:00 (its middle) → Thursday 11:30, i.e. two days and 90 minutes later.
  const grab = await gridPoint(page, 1, 10);
  const drop = await gridPoint(page, 3, 11.5);
  await page.mouse.move(grab.x, grab.y);
  await page.mouse.down();
  await page.mouse.move(drop.x, drop.y, { steps: 8 });
  await page.mouse.up();
  await expect(page.getByRole('button', { name: 'Morning menu, 2026-12-10 10:30–12:30' })).toBeVisible();
  await expect
    .poll(async () => (await find())?.affectedDateRanges?.intervals)
    .toEqual([{ from: '2026-12-10', fromTime: '10:30', to: '2026-12-10', toTime: '12:30', isExcluded: false }]);
  await screenshot(page, 'schedules-week-moved');

  // Click opens it for editing.
  await page.getByRole('button', { name: 'Morning menu, 2026-12-10 10:30–12:30' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit schedule' });
  await expect(edit.getByLabel('Starts')).toHaveValue('2026-12-10T10:30');
  await expect(edit.getByLabel('Content to play')).toHaveValue(loop.id);
  await screenshot(page, 'schedule-edit');
  await edit.getByRole('button', { name: 'Cancel' }).click();

  // The month shows both schedules on their days.
  await page.getByRole('button', { name: 'Month' }).click();
  await expect(page.getByTestId('calendar-title')).toContainText('December 2026');
  await expect(page.locator('[data-testid="month-day"][data-date="2026-12-10"]')).toContainText('Morning menu');
  await expect(page.locator('[data-testid="month-day"][data-date="2026-12-09"]')).toContainText('Company news');
  await screenshot(page, 'schedules-month');

  // Delete it from its dialog, confirmed.
  await page
    .locator('[data-testid="month-day"][data-date="2026-12-10"]')
    .getByRole('button', { name: /Morning menu/ })
    .click();
  await page.getByRole('dialog', { name: 'Edit schedule' }).getByRole('button', { name: 'Delete schedule' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete schedule' }).click();
  await expect(page.locator('[data-testid="month-day"][data-date="2026-12-10"]')).not.toContainText('Morning menu');
  expect(await find()).toBeUndefined();

  expect(errors).toEqual([]);
  expect(failures).toEqual([]);
});

test('a viewer sees the schedules of a folder but cannot create, move or open them', async ({ page, request }) => {
  const errors = collectConsoleErrors(page);
  const suffix = uniqueSuffix();
  const admin = await passwordGrant(request);
  const customer = await createCustomer(request, admin.access_token, `Schedules view ${suffix}`);
  const viewer = await createUser(request, admin.access_token, customer.id, 'VIEWER', 'Val Viewer', suffix);
  const q = `customerId=${customer.id}`;
  const { screensRoot, loop } = await seedTenant(request, admin.access_token, q, 'Evening loop');
  // Across midnight: Friday 22:00 to Saturday 02:00.
  const interval = { from: '2026-12-11', fromTime: '22:00', to: '2026-12-12', toTime: '02:00', isExcluded: false };
  await seedSchedule(request, admin.access_token, q, { name: 'Late show', contentId: loop.id, folderId: screensRoot, interval });
  // The whole week, but the campaign itself plays on weekdays 9–17 only: the calendar draws only that.
  const office = await seedSchedule(request, admin.access_token, q, {
    name: 'Office hours',
    contentId: loop.id,
    folderId: screensRoot,
    interval: { from: '2026-12-07', fromTime: '00:00', to: '2026-12-13', toTime: '23:59', isExcluded: false },
  });
  await api(request, admin.access_token, 'PUT', `/api/campaign/${(office as { id: number }).id}?${q}`, {
    affectedDays: { monday: true, tuesday: true, wednesday: true, thursday: true, friday: true, saturday: false, sunday: false },
    affectedHours: { allDay: false, from: '09:00', end: '17:00' },
  });

  await signIn(page, viewer.email, viewer.password);
  await page.goto('/schedules?date=2026-12-09');
  // The week scrolls to the earliest block of the week (Office hours at 09:00); the late show is further down.
  await expect(page.getByRole('img', { name: 'Office hours, 2026-12-07 09:00–17:00' })).toBeInViewport();
  await expect(page.getByRole('img', { name: 'Late show, 2026-12-11 22:00–24:00' })).toBeAttached();
  await expect(page.getByRole('img', { name: 'Late show, 2026-12-12 00:00–02:00' })).toBeAttached();
  await expect(page.getByRole('button', { name: 'New schedule' })).toHaveCount(0);
  await expect(page.getByTestId('legend-item').filter({ hasText: 'Late show' })).toBeVisible();
  for (const date of ['2026-12-07', '2026-12-08', '2026-12-09', '2026-12-10', '2026-12-11']) {
    await expect(page.getByRole('img', { name: `Office hours, ${date} 09:00–17:00` })).toBeAttached();
  }
  await expect(page.getByRole('img', { name: /^Office hours, 2026-12-1[23]/ })).toHaveCount(0);
  await expect(page.getByRole('img', { name: /^Office hours/ })).toHaveCount(5);
  await screenshot(page, 'schedules-viewer');
  expect(errors).toEqual([]);
});

test('a team-scoped approver creates a schedule: the dialog picks the team, the API holds it', async ({ page, request }) => {
  test.setTimeout(120_000);
  const errors = collectConsoleErrors(page);
  const failures = collectFailedResponses(page);
  const suffix = uniqueSuffix();
  const admin = await passwordGrant(request);
  const customer = await createCustomer(request, admin.access_token, `Schedules team ${suffix}`);
  const q = `customerId=${customer.id}`;
  const approver = await createUser(request, admin.access_token, customer.id, 'APPROVER', 'Tia Team', suffix);
  const team = await api<{ id: string; name: string }>(request, admin.access_token, 'POST', `/api/team?${q}`, {
    name: `Front desk ${suffix}`,
  });
  await api(request, admin.access_token, 'PUT', `/api/team/updateUserAssignments?teamId=${team.id}&${q}`, {
    resourcesToAdd: [{ id: approver.id, readOnly: false }],
  });
  const { screensRoot, loop } = await seedTenant(request, admin.access_token, q, 'Team loop');
  const lobby = await api<{ id: string }>(request, admin.access_token, 'POST', `/api/deviceGroup/${screensRoot}?${q}`, {
    name: 'Team lobby',
    type: 'NORMAL',
  });
  await api(request, admin.access_token, 'PUT', `/api/team/updateDeviceGroupAssignments?teamId=${team.id}&${q}`, {
    resourcesToAdd: [{ id: lobby.id, readOnly: false }],
  });
  await api(request, admin.access_token, 'PUT', `/api/team/updateDeviceContentAssignments?teamId=${team.id}&${q}`, {
    resourcesToAdd: [{ id: loop.id, readOnly: false }],
  });

  await signIn(page, approver.email, approver.password);
  await page.goto(`/schedules?folder=${lobby.id}&date=2026-12-09`);
  await expect(page.getByTestId('calendar-title')).toContainText('2026');
  await page.getByRole('button', { name: 'New schedule' }).click();
  const dialog = page.getByRole('dialog', { name: 'New schedule' });
  // The user's own team is chosen already; without one the form says so before asking the API.
  const box = dialog.getByRole('checkbox', { name: team.name });
  await expect(box).toBeChecked();
  await dialog.getByLabel('Name').fill('Team notices');
  await dialog.getByLabel('Content to play').selectOption({ label: 'Team loop' });
  await box.uncheck();
  await dialog.getByRole('button', { name: 'Create schedule' }).click();
  await expect(dialog.getByText('Choose at least one of your teams', { exact: true })).toBeVisible();
  await box.check();
  await screenshot(page, 'schedule-create-team');
  await dialog.getByRole('button', { name: 'Create schedule' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: /^Team notices, 2026-12-07 09:00–10:00/ })).toBeVisible();
  await screenshot(page, 'schedules-week-team');
  // A new channel of the same user starts with the user's team too.
  await page.goto('/channels/new');
  await expect(page.getByRole('group', { name: 'Teams', exact: true }).getByRole('checkbox', { name: team.name })).toBeChecked();

  const saved = await api<{ content: Array<{ name: string; teamAccessList?: { teams: Array<{ id: string }> } }> }>(
    request,
    admin.access_token,
    'GET',
    `/api/v2/campaign?${q}&search=${encodeURIComponent('name=Team notices')}&select=name,teamAccessList`,
  );
  expect(saved.content.map((c) => c.teamAccessList?.teams.map((t) => t.id))).toEqual([[team.id]]);
  expect(errors).toEqual([]);
  expect(failures).toEqual([]);
});
