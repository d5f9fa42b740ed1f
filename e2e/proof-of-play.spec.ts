import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import { expect, test, type APIRequestContext } from '@playwright/test';
import {
  api,
  collectConsoleErrors,
  createCustomer,
  createUser,
  passwordGrant,
  rootGroupId,
  screenshot,
  signIn,
  uniqueSuffix,
  uploadFile,
} from './fixtures';

/*
 * Proof of play in the console (issue 15, "Console"): plays reported by two screens through the device API
 * (POST /api/display/proofOfPlay) show on the overview (today, the last 7 days, top files, channels and
 * content, screens needing attention), in the report (chart, table, grouping, a screen folder, a channel, a
 * shareable URL, the CSV) and on a screen's page (its last 24 hours). The browser runs in UTC so "today" is the server's UTC day.
 */

test.use({ timezoneId: 'UTC' });

const PNG = readFileSync(fileURLToPath(new URL('./fixtures/poster.png', import.meta.url)));
const MIN = 60_000;
const HOUR = 60 * MIN;

type Registered = { id: string; token: string };

/** A screen registered, claimed into the caller's tenant under `name`, and its device token. */
async function screen(request: APIRequestContext, ownerToken: string, name: string): Promise<Registered> {
  const reg = await request.post('/public-api/display/register', {
    data: { type: 'SCREEN', platform: 'BROWSER', version: 'e2e-1.0', timeZone: 'UTC' },
  });
  expect(reg.status(), await reg.text()).toBe(201);
  const { deviceId, deviceSecret, activationCode } = (await reg.json()) as {
    deviceId: string;
    deviceSecret: string;
    activationCode: string;
  };
  const device = await api<{ id: string }>(request, ownerToken, 'POST', '/api/v2/device/assignToCustomer', {
    activationCode,
    deviceName: name,
    timeZone: 'UTC',
    licenseStatus: 'UN_LICENSED',
  });
  const basic = Buffer.from(`${encodeURIComponent(deviceId)}:${encodeURIComponent(deviceSecret)}`).toString('base64');
  const grant = await request.post('/oauth/token', {
    headers: { authorization: `Basic ${basic}` },
    form: { grant_type: 'client_credentials' },
  });
  expect(grant.status(), await grant.text()).toBe(200);

  return { id: device.id, token: ((await grant.json()) as { access_token: string }).access_token };
}

async function reportPlays(request: APIRequestContext, device: Registered, events: Record<string, unknown>[]) {
  const res = await request.post('/api/display/proofOfPlay', { headers: { authorization: `Bearer ${device.token}` }, data: events });
  expect(res.status(), await res.text()).toBe(202);
  expect(((await res.json()) as { accepted: number }).accepted).toBe(events.length);
}

test('proof of play: the overview, the report (chart, table, grouping, channel, link, CSV) and a screen’s last 24 hours count the plays screens reported', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const errors = collectConsoleErrors(page);
  const suffix = uniqueSuffix();
  const admin = (await passwordGrant(request)).access_token;
  const customer = await createCustomer(request, admin, `Plays ${suffix}`);
  const owner = await createUser(request, admin, customer.id, 'OWNER', 'Paula Plays', suffix);
  const ownerToken = (await passwordGrant(request, owner.email, owner.password)).access_token;

  // Two screens, the foyer in the Lobby folder; a playlist shown by the "Breakfast" channel there; two files.
  const root = (
    await api<{ content: { id: string }[] }>(
      request,
      ownerToken,
      'GET',
      `/api/v2/deviceGroup?search=${encodeURIComponent('parentId=NULL')}`,
    )
  ).content[0]!;
  const lobby = await api<{ id: string }>(request, ownerToken, 'POST', `/api/deviceGroup/${root.id}`, { name: 'Lobby' });
  const foyer = await screen(request, ownerToken, 'Foyer');
  const bar = await screen(request, ownerToken, 'Bar');
  await api(request, ownerToken, 'POST', '/api/v2/device/move', { deviceIds: [foyer.id], targetGroupId: lobby.id });
  const contentRoot = await rootGroupId(request, ownerToken, 'contentGroup');
  const loop = await api<{ id: string }>(request, ownerToken, 'POST', `/api/simpleLoop?contentGroupId=${contentRoot}`, {
    name: 'Welcome loop',
    simpleLoopType: 'NORMAL',
    version: '2.0',
    data: { loopData: { resolution: { width: 1920, height: 1080 } }, slides: [] },
  });
  const channel = await api<{ id: number }>(request, ownerToken, 'POST', '/api/campaign', {
    name: 'Breakfast',
    level: 'WIDGET',
    type: 'CONTENT',
    version: '2.0',
    contentShuffleMode: 'SERIAL',
    contentAssignment: { assignments: [{ contentId: loop.id, weight: 1 }] },
    deviceGroupAssignment: { assignments: [{ deviceGroupId: lobby.id }] },
  });
  const poster = await uploadFile(request, admin, customer.id, { name: 'poster.png', mimeType: 'image/png', buffer: PNG });
  const menu = await uploadFile(request, admin, customer.id, { name: 'menu.png', mimeType: 'image/png', buffer: PNG });

  // Today (UTC): the foyer shows the poster 3 times in the channel's playlist and the menu once (in a slide's
  // widget); the bar the menu once, not to the end. Yesterday: the poster twice on the foyer. 7 plays this week, 5 today.
  const now = Date.now();
  const todayStart = Math.floor(now / (24 * HOUR)) * 24 * HOUR;
  const today = (minutesAgo: number) => Math.max(now - minutesAgo * MIN, todayStart + 1000);
  const play = (startedAt: number, seconds: number, extra: Record<string, unknown>) => ({
    eventId: randomUUID(),
    startedAt,
    endedAt: startedAt + seconds * 1000,
    completed: true,
    ...extra,
  });
  const inChannel = { campaignId: channel.id, contentId: loop.id, fileId: poster.id };
  await reportPlays(request, foyer, [
    play(today(5), 10, inChannel),
    play(today(4), 10, inChannel),
    play(today(3), 10, inChannel),
    play(today(2), 20, { fileId: menu.id, widgetKey: 'w-menu' }),
    play(now - 26 * HOUR, 10, inChannel),
    play(now - 26 * HOUR + MIN, 10, inChannel),
  ]);
  await reportPlays(request, bar, [{ ...play(today(1), 5, { fileId: menu.id }), completed: false }]);

  // The overview: plays today and this week, the most played, the screens that never came online.
  await signIn(page, owner.email, owner.password);
  await expect(page.getByTestId('overview-plays-today')).toHaveText('5');
  await expect(page.getByTestId('overview-plays-week')).toHaveText('7');
  const weekBars = page.getByRole('img', { name: /Plays per day, last 7 days/ }).getByTestId('chart-bar');
  await expect(weekBars).toHaveCount(7);
  await expect(weekBars.last()).toHaveAttribute('data-value', '5');
  const topFiles = page.getByTestId('overview-top-file').getByRole('listitem');
  await expect(topFiles).toHaveText([/poster\.png\s*5/, /menu\.png\s*2/]);
  await expect(page.getByTestId('overview-top-campaign').getByRole('listitem')).toHaveText([/Breakfast\s*5/]);
  await expect(page.getByTestId('overview-top-content').getByRole('listitem')).toHaveText([/Welcome loop\s*5/]);
  await expect(page.getByTestId('overview-attention')).toContainText('2 screens are offline');
  await expect(page.getByTestId('overview-screens')).toContainText('0 of 2 online');
  await screenshot(page, 'overview-plays');
  // A day's bar opens that day's report, hour by hour.
  await weekBars.last().getByRole('link').click();
  await expect(page).toHaveURL(/\/proof-of-play\?from=\d{4}-\d{2}-\d{2}&to=\d{4}-\d{2}-\d{2}&resolution=HOURLY$/);
  await expect(page.getByTestId('report-plays')).toHaveText('5');
  await expect(page.getByRole('img', { name: /Plays per hour/ }).getByTestId('chart-bar')).toHaveCount(24);
  await page.goBack();
  await page.getByTestId('overview-top-campaign').getByRole('link', { name: 'Breakfast' }).click();
  await expect(page).toHaveURL(new RegExp(`/channels/${channel.id}$`));
  await page.goBack();

  // The report: last 7 days by screen, daily.
  await page.getByRole('link', { name: 'Open proof of play' }).click();
  await expect(page.getByRole('heading', { name: 'Proof of play', level: 1 })).toBeVisible();
  await expect(page.getByTestId('report-plays')).toHaveText('7');
  await expect(page.getByTestId('report-completed')).toHaveText('6');
  const reportBars = page.getByRole('img', { name: /Plays per day/ }).getByTestId('chart-bar');
  await expect(reportBars).toHaveCount(7);
  await expect(reportBars.last()).toHaveAttribute('data-value', '5');
  const rows = page.getByRole('table').locator('tbody tr');
  await expect(rows).toHaveCount(3);
  // Period, then screen name: yesterday's foyer, then today's bar and foyer.
  await expect(rows.nth(1)).toContainText('Bar');
  await expect(rows.nth(2).getByRole('cell')).toHaveText([/\d{4}-\d{2}-\d{2} 00:00/, 'Foyer', '4', '4', '50 s', '0', '0']);
  await screenshot(page, 'report-by-screen');

  // Sorting by plays is the API's: the foyer's 4 first.
  await page.getByRole('button', { name: /^Plays/ }).click();
  await expect(page).toHaveURL(/sort=impressionStartCount%2Cdesc/);
  await expect(rows.first()).toContainText('Foyer');
  await expect(rows.first().getByRole('cell').nth(2)).toHaveText('4');

  // All files, the whole range: the poster 5 times, the menu twice.
  await page.getByLabel('Plays of').selectOption('file');
  await page.getByRole('group', { name: 'Resolution' }).getByRole('button', { name: 'Total' }).click();
  await expect(page).toHaveURL(/on=file/);
  await expect(page).toHaveURL(/resolution=TOTAL/);
  await expect(rows).toHaveCount(2);
  await expect(rows.first().getByRole('cell')).toHaveText(['poster.png', '5', '5', '50 s', '0', '0']);
  await expect(rows.nth(1).getByRole('cell')).toHaveText(['menu.png', '2', '1', '25 s', '0', '0']);

  // A screen folder narrows the plays to the screens in it (and below it): the Lobby holds the foyer only.
  await page.getByTestId('report-folder').click();
  await page
    .getByRole('dialog', { name: 'Screen folder' })
    .getByTestId('device-folder-Lobby')
    .getByRole('button', { name: 'Lobby', exact: true })
    .click();
  await expect(page).toHaveURL(/folder=/);
  await expect(page.getByTestId('report-folder')).toHaveText('Lobby');
  await expect(rows).toHaveCount(2);
  await expect(rows.first().getByRole('cell')).toHaveText(['poster.png', '5', '5', '50 s', '0', '0']);
  await expect(rows.nth(1).getByRole('cell')).toHaveText(['menu.png', '1', '1', '20 s', '0', '0']);
  await screenshot(page, 'report-folder');
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page.getByTestId('report-folder')).toHaveText('All folders');

  // By slide widget: the menu the foyer showed in a slide's widget; everything else played whole.
  await page.getByLabel('Group by').selectOption('WIDGET');
  await expect(page).toHaveURL(/groupBy=WIDGET/);
  await expect(rows).toHaveCount(2);
  await expect(rows.first().getByRole('cell')).toHaveText(['(whole page)', '6', '5', '55 s', '0', '0']);
  await expect(rows.nth(1).getByRole('cell')).toHaveText(['w-menu', '1', '1', '20 s', '0', '0']);

  // One channel, by screen: only the foyer played it.
  await page.getByLabel('Channel').selectOption(String(channel.id));
  await page.getByLabel('Group by').selectOption('DEVICE');
  await expect(rows).toHaveCount(1);
  await expect(rows.first().getByRole('cell')).toHaveText(['Foyer', '5', '5', '50 s', '0', '0']);
  await expect(page.getByTestId('report-plays')).toHaveText('5');
  await screenshot(page, 'report-channel-total');

  // The URL is the report: opened afresh it shows the same; "Copy link" spells out range and zone.
  const shared = page.url();
  expect(shared).toContain(`channel=${channel.id}`);
  await page.goto(shared);
  await expect(page.getByLabel('Channel')).toHaveValue(String(channel.id));
  await expect(page.getByLabel('Group by')).toHaveValue('DEVICE');
  await expect(rows).toHaveCount(1);
  await page.getByRole('button', { name: 'Copy link' }).click();
  await expect(page).toHaveURL(/from=\d{4}-\d{2}-\d{2}&to=\d{4}-\d{2}-\d{2}&tz=UTC/);

  // The CSV: the same rows, fetched with the session.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
  const csv = readFileSync((await download.path())!, 'utf8')
    .trim()
    .split(/\r?\n/);
  expect(csv[0]).toContain('impressionStartCount');
  expect(csv).toHaveLength(2);
  expect(csv[1]).toContain('Foyer');

  // Another zone: kept in the URL, named under the chart.
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await page.getByLabel('Time zone').selectOption('Europe/Berlin');
  await expect(page).toHaveURL(/tz=Europe%2FBerlin/);
  await expect(page.getByText('Periods start in Europe/Berlin')).toBeVisible();
  expect(errors).toEqual([]);

  // A screen's page: its plays of the last 24 hours beside what it is scheduled to play.
  await page.goto(`/screens/${foyer.id}`);
  await expect(page.getByRole('heading', { name: 'Played in the last 24 hours' })).toBeVisible();
  await expect(page.getByTestId('screen-plays-total')).toHaveText('4');
  const hourBars = page.getByRole('img', { name: /Plays per hour, last 24 hours/ }).getByTestId('chart-bar');
  await expect(hourBars).toHaveCount(24);
  await expect(page.getByRole('list', { name: 'Played most' }).getByRole('listitem')).toHaveText([/poster\.png\s*3 ×/, /menu\.png\s*1 ×/]);
  await screenshot(page, 'screen-plays');
  expect(errors).toEqual([]);
});
