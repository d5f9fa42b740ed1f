import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import {
  api,
  collectConsoleErrors,
  contentChannel,
  createCustomer,
  createUser,
  passwordGrant,
  rootGroupId,
  screenshot,
  signIn,
  uniqueSuffix,
  waitForHydration,
} from './fixtures';

/*
 * Issue 30: a live RSS feed on a screen. The test serves its own feed on 127.0.0.1 (the e2e server may fetch
 * private addresses), makes an RSS datasource of it, and builds a slide in the slide editor with a datasource widget
 * in ticker mode: chosen in the panel, whose peek and canvas show the feed's current item. The slide plays on a
 * screen at /player in a channel. A new item in the feed, refreshed from the datasource's page ("Refresh now": a
 * synchronous refresh), reaches the screen as `datasourceChanged`: the ticker shows the new title without a reload.
 */

type Item = { guid: string; title: string; published: Date };

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function rss(items: readonly Item[]): string {
  const entries = items
    .map(
      (i) =>
        `<item><guid isPermaLink="false">${i.guid}</guid><title>${escapeXml(i.title)}</title>` +
        `<link>https://news.example.com/${i.guid}</link><pubDate>${i.published.toUTCString()}</pubDate>` +
        `<description>${escapeXml(`About ${i.title}`)}</description></item>`,
    )
    .join('');

  return `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Lobby news</title><link>https://news.example.com/</link><description>e2e</description>${entries}</channel></rss>`;
}

/** An RSS feed on 127.0.0.1 whose items the test changes; answers how often it was fetched. */
async function startFeed(items: Item[]): Promise<{ server: Server; url: string; fetches: () => number }> {
  let fetches = 0;
  const server = createServer((req, res) => {
    if (req.url !== '/feed.xml') {
      res.writeHead(404).end();

      return;
    }
    fetches++;
    res.writeHead(200, { 'content-type': 'application/rss+xml; charset=utf-8', 'cache-control': 'no-store' });
    res.end(rss(items));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return { server, url: `http://127.0.0.1:${port}/feed.xml`, fetches: () => fetches };
}

/** The play events of one proof-of-play upload (NDJSON). */
function uploadedPlays(body: string | null): Array<Record<string, unknown> & { widgetKey?: string; startedAt: number; endedAt: number }> {
  return (body ?? '')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown> & { startedAt: number; endedAt: number });
}

/** The text of the datasource widget the player's current layer shows. */
function playerTicker(player: Page) {
  return player.locator('#stage > .layer[data-state="current"] [data-widget="datasource"]');
}

test('an RSS datasource in a ticker widget plays on /player and shows a new item after a refresh, without a reload', async ({
  page,
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const errors = collectConsoleErrors(page);
  const suffix = uniqueSuffix();
  const first: Item = { guid: `first-${suffix}`, title: `Harbour opens at dawn ${suffix}`, published: new Date(Date.now() - 3_600_000) };
  const items: Item[] = [first];
  const feed = await startFeed(items);
  const screenContext = await browser.newContext({ viewport: { width: 1280, height: 720 }, baseURL });
  try {
    const admin = await passwordGrant(request);
    const customer = await createCustomer(request, admin.access_token, `Ticker ${suffix}`);
    const owner = await createUser(request, admin.access_token, customer.id, 'OWNER', 'Ticker Owner', suffix);
    const token = (await passwordGrant(request, owner.email, owner.password)).access_token;

    // The datasource (through the API): refreshed by the service within seconds of its creation.
    const datasource = await api<{ id: string }>(request, token, 'POST', '/api/datasource', {
      name: `Lobby news ${suffix}`,
      sourceType: 'EXTERNAL',
      structureType: 'FEED',
      type: 'RSS',
      remoteUrl: feed.url,
      refreshFrequency: 3_600,
    });
    const feedTitles = async () =>
      (await api<{ items: { title: string }[] }>(request, token, 'GET', `/api/datasource/${datasource.id}/data`)).items.map((i) => i.title);
    await expect.poll(feedTitles, { timeout: 30_000 }).toEqual([first.title]);

    // The slide, built in the editor: a datasource widget showing the feed as a ticker.
    await signIn(page, owner.email, owner.password);
    await page.goto('/content');
    await waitForHydration(page);
    await page.getByRole('button', { name: 'New slide' }).click();
    await page.getByRole('dialog').getByLabel('Name').fill('Lobby ticker');
    await page.getByRole('dialog').getByLabel('Start from').selectOption({ label: 'Blank, landscape (1920 × 1080)' });
    await page.getByRole('button', { name: 'Create slide' }).click();
    await expect(page).toHaveURL(/\/content\/[0-9a-f-]{36}$/);
    const slideId = page.url().split('/').at(-1)!;
    await page.getByRole('toolbar', { name: 'Add a widget' }).getByRole('button', { name: 'Add data source' }).click();
    const panel = page.getByRole('group', { name: /properties$/ });
    await panel.getByLabel('Datasource', { exact: true }).selectOption({ label: `Lobby news ${suffix} · feed` });
    await panel.getByLabel('Shows').selectOption({ label: 'A ticker' });
    // The panel peeks at the feed's current item; the canvas draws the ticker with it.
    await expect(panel.getByTestId('datasource-peek')).toContainText(first.title);
    const canvasWidget = page.getByTestId('slide-canvas').locator('[data-widget="datasource"]');
    await expect(canvasWidget).toHaveAttribute('data-mode', 'ticker');
    await expect(canvasWidget).toHaveAttribute('data-state', 'data');
    await expect(canvasWidget).toContainText(first.title);
    await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved', { timeout: 30_000 });
    await screenshot(page, 'datasource-ticker-editor-1440');
    await page.setViewportSize({ width: 1024, height: 800 });
    await expect(panel.getByTestId('datasource-peek')).toBeVisible();
    await screenshot(page, 'datasource-ticker-editor-1024');
    await page.setViewportSize({ width: 1440, height: 900 });
    // What the editor saved (the API answers a slide keyed by page name): the widget names the datasource, as a ticker.
    const saved = await api<{ data: Record<string, { widgets?: { id: string; type: string; mode?: string; datasourceId?: string }[] }> }>(
      request,
      token,
      'GET',
      `/api/v2/deviceContent/${slideId}`,
    );
    expect(Object.values(saved.data)[0]!.widgets).toEqual([
      expect.objectContaining({ type: 'datasource', mode: 'ticker', datasourceId: datasource.id }),
    ]);

    // A screen: /player paired by its code into the tenant's root folder, where a channel plays the slide.
    const screensRoot = await rootGroupId(request, token, 'deviceGroup');
    await api(request, token, 'POST', '/api/campaign', contentChannel('Ticker channel', slideId, screensRoot));
    const player = await screenContext.newPage();
    const playerErrors = collectConsoleErrors(player);
    // Proof of play names the widget that showed the data (spec 4 §5 `widgetKey`): the player's upload carries a play
    // of the ticker's key alone (the slide's own play names the content).
    const widgetKey = Object.values(saved.data)[0]!.widgets![0]!.id;
    const widgetPlayUploaded = player.waitForRequest(
      (req) =>
        req.method() === 'POST' &&
        req.url().endsWith('/api/display/proofOfPlay') &&
        uploadedPlays(req.postData()).some((e) => e.widgetKey === widgetKey),
      { timeout: 120_000 },
    );
    await player.goto('/player');
    const code = player.getByTestId('activation-code');
    await expect(code).toHaveText(/^\d{4}$/, { timeout: 20_000 });
    await api(request, token, 'POST', '/api/v2/device/assignToCustomer', {
      activationCode: await code.textContent(),
      deviceName: 'Lobby ticker screen',
      timeZone: 'UTC',
      licenseStatus: 'UN_LICENSED',
    });
    await expect(playerTicker(player)).toContainText(first.title, { timeout: 60_000 });
    await expect(playerTicker(player)).toHaveAttribute('data-mode', 'ticker');
    await screenshot(player, 'datasource-ticker-player-first');
    // Set now and still there later: the page was not loaded again.
    await player.evaluate(() => Object.assign(window, { e2eMarker: 'before-refresh' }));
    const navigations: string[] = [];
    player.on('framenavigated', (frame) => {
      if (frame === player.mainFrame()) navigations.push(frame.url());
    });

    // A new item in the feed, refreshed from the datasource's page.
    const second: Item = { guid: `second-${suffix}`, title: `Ferry timetable changes ${suffix}`, published: new Date() };
    items.unshift(second);
    const fetchesBefore = feed.fetches();
    await page.goto(`/datasources/${datasource.id}`);
    await waitForHydration(page);
    await expect(page.getByRole('heading', { level: 1 })).toContainText(`Lobby news ${suffix}`);
    await expect(page.getByTestId('datasource-kind')).toHaveText('External · RSS');
    await expect(page.getByRole('list', { name: 'Feed items' }).getByRole('link', { name: first.title })).toBeVisible();
    await expect(page.getByRole('list', { name: 'Used by' }).getByRole('link', { name: 'Lobby ticker' })).toHaveAttribute(
      'href',
      `/content/${slideId}`,
    );
    await page.getByRole('button', { name: 'Refresh now' }).click();
    await expect(page.getByTestId('datasource-outcome')).toHaveText('Refreshed: the data changed.', { timeout: 30_000 });
    expect(feed.fetches()).toBeGreaterThan(fetchesBefore);
    await expect(page.getByRole('list', { name: 'Feed items' }).getByRole('link').first()).toHaveText(second.title);
    await screenshot(page, 'datasource-detail-feed-1440');

    // The screen heard of the change and drew the new title, in the same page.
    await expect(playerTicker(player)).toContainText(second.title, { timeout: 30_000 });
    await expect(playerTicker(player)).toContainText(first.title);
    expect(await player.evaluate(() => (window as unknown as { e2eMarker?: string }).e2eMarker)).toBe('before-refresh');
    expect(navigations).toEqual([]);
    await screenshot(player, 'datasource-ticker-player-second');
    const widgetPlay = uploadedPlays((await widgetPlayUploaded).postData()).find((e) => e.widgetKey === widgetKey)!;
    expect(Object.keys(widgetPlay).sort()).toEqual(['completed', 'endedAt', 'eventId', 'startedAt', 'widgetKey']);
    expect(widgetPlay.endedAt).toBeGreaterThan(widgetPlay.startedAt);
    expect(errors).toEqual([]);
    expect(playerErrors).toEqual([]);
  } finally {
    await screenContext.close();
    await new Promise<void>((resolve) => feed.server.close(() => resolve()));
  }
});
