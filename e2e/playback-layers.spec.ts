import { expect, test, type APIRequestContext, type Locator } from '@playwright/test';
import {
  api,
  collectConsoleErrors,
  contentChannel,
  createCustomer,
  createUser,
  passwordGrant,
  registerAndClaim,
  screenshot,
  signIn,
  uniqueSuffix,
} from './fixtures';

/*
 * Everything that plays, by layer (issue 28 items 6 and 13): the schedules calendar of a folder shows its two
 * channels all week, a schedule and an emergency, each labelled by its layer and resolved by the server as the
 * screens resolve it; a screen in emergency says its channels are overridden; the timeline's tick labels never
 * overlap at 1024 and 1440 wide. The week shown is the week after next (WEEK), whenever the test runs.
 */

type Folder = { id: string };

/**
 * The week shown, Monday to Sunday, the week after next (UTC): always ahead, since the calendar draws a screen's
 * emergency from now on only.
 */
const WEEK = (() => {
  const monday = new Date();
  monday.setUTCHours(0, 0, 0, 0);
  monday.setUTCDate(monday.getUTCDate() + 14 - ((monday.getUTCDay() + 6) % 7));
  const day = (n: number) => new Date(monday.getTime() + n * 86_400_000).toISOString().slice(0, 10);

  const [mon, wed, thu, sun] = [day(0), day(2), day(3), day(6)];

  // A day without the schedule in Wednesday's month (the month view shows that month).
  return { mon, wed, thu, sun, inMonth: thu.slice(0, 7) === wed.slice(0, 7) ? thu : mon };
})();

/** A tenant with a Lobby folder (two screens, two channels, a schedule) and below it Upper (one screen in emergency). */
async function seed(request: APIRequestContext) {
  const suffix = uniqueSuffix();
  const admin = (await passwordGrant(request)).access_token;
  const customer = await createCustomer(request, admin, `Layers ${suffix}`);
  const approver = await createUser(request, admin, customer.id, 'APPROVER', 'Lia Layers', suffix);
  const q = `customerId=${customer.id}`;
  const rootOf = async (kind: string) =>
    (await api<{ content: Folder[] }>(request, admin, 'GET', `/api/v2/${kind}?${q}&search=${encodeURIComponent('parentId=NULL')}`))
      .content[0]!.id;
  const screensRoot = await rootOf('deviceGroup');
  const contentRoot = await rootOf('contentGroup');
  const lobby = await api<Folder>(request, admin, 'POST', `/api/deviceGroup/${screensRoot}?${q}`, { name: 'Lobby', type: 'NORMAL' });
  const upper = await api<Folder>(request, admin, 'POST', `/api/deviceGroup/${lobby.id}?${q}`, { name: 'Upper', type: 'NORMAL' });
  const loop = (name: string) =>
    api<{ id: string }>(request, admin, 'POST', `/api/simpleLoop?${q}&contentGroupId=${contentRoot}`, {
      name,
      simpleLoopType: 'NORMAL',
      version: '2.0',
      data: { loopData: { resolution: { width: 1920, height: 1080 } }, slides: [] },
    });
  const [menu, evacuate] = [await loop('Breakfast menu'), await loop('Evacuate now')];
  const ids = [
    await registerAndClaim(request, admin, customer.id, 'Door'),
    await registerAndClaim(request, admin, customer.id, 'Desk'),
    await registerAndClaim(request, admin, customer.id, 'Stairs'),
  ];
  await api(request, admin, 'POST', `/api/v2/device/move?${q}`, { deviceIds: ids.slice(0, 2), targetGroupId: lobby.id });
  await api(request, admin, 'POST', `/api/v2/device/move?${q}`, { deviceIds: [ids[2]], targetGroupId: upper.id });
  const stairs = `${q}&search=${encodeURIComponent(`id=${ids[2]}`)}`;
  await api(request, admin, 'POST', `/api/v2/device/assignContent?${stairs}&contentId=${evacuate.id}&asEmergency=true&asAssigned=false`);
  await api(request, admin, 'POST', `/api/v2/device/emergency?${stairs}&emergencyStatus=true`);
  // Two channels of the Lobby with no dates or hours: they play all week.
  await api(request, admin, 'POST', `/api/campaign?${q}`, { ...contentChannel('Menu', menu.id, lobby.id), weight: 1 });
  await api(request, admin, 'POST', `/api/campaign?${q}`, { ...contentChannel('News', menu.id, lobby.id), weight: 2 });
  await api(request, admin, 'POST', `/api/campaign?${q}`, {
    ...contentChannel('Opening', menu.id, lobby.id),
    level: 'TOP',
    affectedDateRanges: { intervals: [{ from: WEEK.wed, fromTime: '12:00', to: WEEK.wed, toTime: '14:00', isExcluded: false }] },
  });

  return { approver, lobby, upper, stairsId: ids[2]!, menuId: menu.id, admin, q };
}

/** Whether any two of the elements' boxes intersect. */
async function overlapping(locator: Locator): Promise<string[]> {
  const boxes = await locator.evaluateAll((nodes) =>
    nodes.map(
      (n) =>
        ({ text: n.textContent ?? '', ...n.getBoundingClientRect().toJSON() }) as {
          text: string;
          left: number;
          right: number;
          top: number;
          bottom: number;
        },
    ),
  );

  return boxes.flatMap((a, i) =>
    boxes
      .slice(i + 1)
      .filter((b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom)
      .map((b) => `${a.text} × ${b.text}`),
  );
}

for (const width of [1440, 1024]) {
  test.describe(`at ${width} wide`, () => {
    test.use({ viewport: { width, height: 900 } });

    test("the schedules calendar shows a folder's channels all week, its schedule and an emergency, by layer", async ({
      page,
      request,
    }) => {
      test.setTimeout(240_000);
      const errors = collectConsoleErrors(page);
      const { approver, lobby } = await seed(request);
      await signIn(page, approver.email, approver.password);
      await page.goto(`/schedules?folder=${lobby.id}&date=${WEEK.wed}`);
      await expect(page.getByText('a schedule replaces every channel while it runs')).toBeVisible();
      const legend = (layer: string) => page.locator(`[data-testid="legend-item"][data-layer="${layer}"]`);
      await expect(legend('CHANNELS')).toHaveCount(2);
      await expect(legend('CHANNELS').filter({ hasText: 'Menu' })).toContainText('on 2 of 3 screens');
      await expect(legend('CHANNELS').filter({ hasText: 'News' })).toContainText('Channels');
      await expect(legend('EMERGENCY')).toContainText('Evacuate now');
      await expect(legend('EMERGENCY')).toContainText('on 1 of 3 screens');
      await expect(legend('SCHEDULE')).toContainText('Opening');
      await expect(page.getByTestId('schedules-empty')).toHaveCount(0);
      // The screen in emergency plays no channel: they are on 2 of the 3 screens.
      // Every day of the week: the two channels in one block, all day, on the two screens not in emergency.
      for (const date of [WEEK.mon, WEEK.thu, WEEK.sun]) {
        const day = page.locator(`[data-testid="week-day"][data-date="${date}"]`);
        await expect(day.locator('[data-layer="CHANNELS"]')).toHaveAttribute(
          'aria-label',
          `Menu, News (Channels), ${date} 00:00–24:00, on 2 of 3 screens`,
        );
        await expect(day.locator('[data-layer="EMERGENCY"]')).toHaveAttribute(
          'aria-label',
          `Evacuate now (Emergency), ${date} 00:00–24:00, on 1 of 3 screens`,
        );
      }
      // The schedule wins over the channels from 12:00 to 14:00 on the Wednesday: the channels' block stops there.
      const wednesday = page.locator(`[data-testid="week-day"][data-date="${WEEK.wed}"]`);
      await expect(wednesday.getByRole('button', { name: `Opening, ${WEEK.wed} 12:00–14:00` })).toBeVisible();
      await expect(wednesday.locator('[data-layer="CHANNELS"]')).toHaveCount(2);
      await expect(wednesday.locator('[data-layer="CHANNELS"]').first()).toHaveAttribute('aria-label', /00:00–12:00/);
      await screenshot(page, `schedules-layers-${width}`);
      // The month shows them too.
      await page.getByRole('button', { name: 'Month' }).click();
      await expect(page.locator(`[data-testid="month-day"][data-date="${WEEK.inMonth}"] [data-layer="CHANNELS"]`)).toContainText(
        'Menu, News',
      );
      // Channels and sub-channels say how they relate to schedules.
      for (const path of ['/channels', '/sub-channels']) {
        await page.goto(path);
        await expect(page.getByText('a schedule replaces every channel while it runs, and an emergency replaces everything')).toBeVisible();
      }
      expect(errors).toEqual([]);
    });

    test("a screen in emergency says its channels are overridden; the timeline's labels do not overlap", async ({ page, request }) => {
      test.setTimeout(240_000);
      const errors = collectConsoleErrors(page);
      const { approver, stairsId } = await seed(request);
      await signIn(page, approver.email, approver.password);
      await page.goto(`/screens/${stairsId}`);
      await expect(page.getByTestId('explain-layer')).toContainText('emergency content');
      const explained = page.getByRole('list', { name: 'Channels and schedules' });
      for (const name of ['Menu', 'News']) {
        const item = explained.getByRole('listitem').filter({ hasText: name });
        await expect(item).toContainText('Overridden by the emergency');
        await expect(item).not.toContainText('Plays');
      }
      const ticks = page.getByTestId('timeline-tick');
      await expect(ticks.first()).toBeVisible();
      expect(await overlapping(ticks)).toEqual([]);
      await page.getByRole('button', { name: 'Next 7 days' }).click();
      await expect(ticks).toHaveCount(7);
      expect(await overlapping(ticks)).toEqual([]);
      await page.getByRole('list', { name: 'Segments' }).scrollIntoViewIfNeeded();
      await screenshot(page, `screen-timeline-${width}`);
      expect(errors).toEqual([]);
    });
  });
}

test.describe('at 1024 wide', () => {
  test.use({ viewport: { width: 1024, height: 768 } });

  test("a folder's calendar draws a schedule set on a sub-folder, named so, and leaves editing it to the sub-folder", async ({
    page,
    request,
  }) => {
    test.setTimeout(240_000);
    const errors = collectConsoleErrors(page);
    const { approver, lobby, upper, stairsId, menuId, admin, q } = await seed(request);
    // The Upper screen out of emergency, and a schedule of its own folder on Thursday morning.
    await api(request, admin, 'POST', `/api/v2/device/emergency?${q}&search=${encodeURIComponent(`id=${stairsId}`)}&emergencyStatus=false`);
    await api(request, admin, 'POST', `/api/campaign?${q}`, {
      ...contentChannel('Upper quiz', menuId, upper.id),
      level: 'TOP',
      affectedDateRanges: { intervals: [{ from: WEEK.thu, fromTime: '09:00', to: WEEK.thu, toTime: '11:00', isExcluded: false }] },
    });
    await signIn(page, approver.email, approver.password);

    await page.goto(`/schedules?folder=${lobby.id}&date=${WEEK.thu}`);
    const quizLegend = page.locator('[data-testid="legend-item"][data-layer="SCHEDULE"]').filter({ hasText: 'Upper quiz' });
    await expect(quizLegend).toContainText('set on a sub-folder');
    await expect(quizLegend).toContainText('on 1 of 3 screens');
    const thursday = page.locator(`[data-testid="week-day"][data-date="${WEEK.thu}"]`);
    const quiz = thursday.getByRole('img', { name: `Upper quiz, ${WEEK.thu} 09:00–11:00, on 1 of 3 screens, set on a sub-folder` });
    await expect(quiz).toBeVisible();
    // Drawn, not edited here: it is no button, and a click opens no dialog.
    await quiz.click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    // Its lane is the column's share beside the overlapping blocks, not the day's narrowest.
    const dayWidth = (await thursday.boundingBox())!.width;
    expect((await quiz.boundingBox())!.width).toBeGreaterThan(dayWidth / 4);
    await screenshot(page, 'schedules-sub-folder-1024');

    // On its own folder it is an editable schedule like any other.
    await page.goto(`/schedules?folder=${upper.id}&date=${WEEK.thu}`);
    await expect(
      page
        .locator(`[data-testid="week-day"][data-date="${WEEK.thu}"]`)
        .getByRole('button', { name: `Upper quiz, ${WEEK.thu} 09:00–11:00` }),
    ).toBeVisible();
    await expect(page.getByText('set on a sub-folder')).toHaveCount(0);
    expect(errors).toEqual([]);
  });
});
