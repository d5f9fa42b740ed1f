import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
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
  uploadFile,
} from './fixtures';

/*
 * The signage loop with the real web player: a technician uploads an image and a video in the console; a
 * playlist of both and a slide plays in a channel for a screen folder. A second browser opens /player and
 * shows its code; the technician adds that screen by the code (through the QR code's link, which opens "Add a
 * screen" filled in) into the folder. The player shows the image, the video (its time advancing) and the
 * slide, and uploads its proof of play, which the server accepts and the proof-of-display report counts.
 * Settings and a restart from the console reach it; a changed playlist is switched to once its new file is in the
 * service worker's cache; offline it plays on from that cache, and the plays it made meanwhile reach the server
 * when the network is back.
 */

const fixture = (name: string) => readFileSync(fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url)));
const PNG = { name: 'poster.png', mimeType: 'image/png', buffer: fixture('poster.png') };
const WEBM = { name: 'clip.webm', mimeType: 'video/webm', buffer: fixture('clip.webm') };
const PORTRAIT = { name: 'portrait.png', mimeType: 'image/png', buffer: fixture('portrait.png') };

/** What the player's current layer shows: its kind and file. */
function current(player: Page) {
  return player.evaluate(() => {
    const layer = document.querySelector<HTMLElement>('#stage > .layer[data-state="current"]');

    return layer ? { kind: layer.dataset.kind, fileId: layer.dataset.fileId, visible: layer.style.visibility !== 'hidden' } : null;
  });
}

/** Whether the image `fileId` is drawn (decoded) in the player's current layer, that layer revealed. */
function imageShown(player: Page, fileId: string) {
  return player.evaluate((id) => {
    const layer = document.querySelector<HTMLElement>('#stage > .layer[data-state="current"]');
    const img = layer?.querySelector<HTMLImageElement>(`img[data-file-id="${id}"]`);

    return Boolean(layer?.style.visibility !== 'hidden' && img?.complete && img.naturalWidth > 0);
  }, fileId);
}

test("a browser at /player is added by its code, plays the channel's image and video, and the report counts its plays", async ({
  page,
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const errors = collectConsoleErrors(page);
  const suffix = uniqueSuffix();
  const admin = await passwordGrant(request);
  const customer = await createCustomer(request, admin.access_token, `Signage loop ${suffix}`);
  const owner = await createUser(request, admin.access_token, customer.id, 'OWNER', 'Loop Owner', suffix);
  const token = (await passwordGrant(request, owner.email, owner.password)).access_token;

  // The screen: a second browser, as a kiosk would be.
  const screenContext = await browser.newContext({ viewport: { width: 1280, height: 720 }, baseURL });
  const player = await screenContext.newPage();
  const playerErrors = collectConsoleErrors(player);
  try {
    // The page and its service worker are revalidated on every load; the hashed script is cached for a year.
    const pageRes = await request.get('/player/');
    expect(pageRes.headers()['cache-control']).toBe('no-cache');
    const script = /src="(\/player\/player-[A-Z0-9]+\.js)"/.exec(await pageRes.text())![1]!;
    expect((await request.get(script)).headers()['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await request.get('/player/sw.js')).headers()['cache-control']).toBe('no-cache');

    await player.goto('/player');
    await expect(player).toHaveURL(/\/player\/$/);
    const code = player.getByTestId('activation-code');
    await expect(code).toHaveText(/^\d{4}$/, { timeout: 20_000 });
    await expect(player.locator('#qr svg')).toBeVisible();
    const activationCode = (await code.textContent())!;
    await screenshot(player, 'player-pairing');

    // Upload an image and a video in the console.
    await signIn(page, owner.email, owner.password);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Media' }).click();
    await expect(page.getByRole('heading', { name: 'Media', level: 1 })).toBeVisible();
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByTestId('upload-panel').locator('input[type=file]:not([webkitdirectory])').first().setInputFiles([PNG, WEBM]);
    await expect(page.getByTestId('upload-summary')).toContainText('Uploaded 2 files', { timeout: 60_000 });
    const files = (await api<{ content: { id: string; name: string }[] }>(request, token, 'GET', '/api/v2/file?select=name&sort=name,asc'))
      .content;
    const image = files.find((f) => f.name === 'poster.png')!;
    const video = files.find((f) => f.name === 'clip.webm')!;
    expect(image && video).toBeTruthy();

    // A playlist of both, in a channel for the "Lobby screens" folder.
    const contentRoot = await rootGroupId(request, token, 'contentGroup');
    const screensRoot = await rootGroupId(request, token, 'deviceGroup');
    const lobby = await api<{ id: string }>(request, token, 'POST', `/api/deviceGroup/${screensRoot}`, { name: 'Lobby screens' });
    const slide = await api<{ id: string }>(request, token, 'POST', `/api/content?contentGroupId=${contentRoot}`, {
      name: 'Lobby welcome',
      structureType: 'SLIDE',
      // Keyed by page name, as a client written from the spec sends it (DECISIONS §2).
      data: {
        Main: {
          pageStyle: { backgroundColor: '#1e3a8a' },
          pageData: { screenSize: { width: 1920, height: 1080 }, durationMs: 3_000 },
          widgets: [
            {
              id: 'title',
              type: 'text',
              x: 160,
              y: 380,
              width: 1600,
              height: 200,
              zIndex: 1,
              text: 'Welcome to the lobby',
              textStyle: { fontSize: 120, fontWeight: 'bold', align: 'center' },
            },
            {
              id: 'clock',
              type: 'clock',
              x: 1560,
              y: 40,
              width: 320,
              height: 100,
              zIndex: 2,
              format: 'HH:mm',
              textStyle: { fontSize: 64 },
            },
          ],
        },
      },
    });
    const loopBody = (imageKey: string, imageId: string) => ({
      name: 'Lobby loop',
      simpleLoopType: 'NORMAL',
      version: '2.0',
      data: {
        loopData: { resolution: { width: 1920, height: 1080 } },
        slides: [
          { key: imageKey, type: 'FILE', id: imageId, durationMs: 3_000 },
          { key: 'clip', type: 'FILE', id: video.id },
          { key: 'welcome', type: 'CONTENT', id: slide.id, durationMs: 3_000 },
        ],
      },
    });
    const loop = await api<{ id: string }>(
      request,
      token,
      'POST',
      `/api/simpleLoop?contentGroupId=${contentRoot}`,
      loopBody('poster', image.id),
    );
    await api(request, token, 'POST', '/api/campaign', contentChannel('Lobby channel', loop.id, lobby.id));

    // The QR code's link: the screens page opens "Add a screen" with the code filled in.
    await page.goto(`/screens?pair=${activationCode}`);
    const dialog = page.getByRole('dialog', { name: 'Add a screen' });
    await expect(dialog.getByLabel('Code on the screen')).toHaveValue(activationCode);
    await dialog.getByLabel('Name').fill('Lobby browser');
    await dialog.getByTestId('device-folder-Lobby screens').click();
    await expect(dialog.getByTestId('add-screen-folder')).toHaveText('Lobby screens');
    await dialog.getByRole('button', { name: 'Add screen' }).click();
    await expect(page).toHaveURL(/\/screens\/[0-9a-f-]{36}$/);
    await expect(page.getByRole('heading', { name: 'Lobby browser' })).toBeVisible();
    const screenId = new URL(page.url()).pathname.split('/').pop()!;

    const uploaded = player.waitForResponse((res) => res.url().endsWith('/api/display/proofOfPlay') && res.request().method() === 'POST', {
      timeout: 120_000,
    });
    const metricsSent = player.waitForResponse((res) => res.url().endsWith('/api/display/metrics') && res.request().method() === 'POST', {
      timeout: 120_000,
    });
    // The player hears the claim, fetches its manifest and plays: the image, then the video with its time moving.
    await expect(player.locator('#pairing')).toBeHidden({ timeout: 30_000 });
    await expect(player.locator('body')).toHaveAttribute('data-layer', 'CHANNELS', { timeout: 30_000 });
    // The image drawn while it is the current layer: where the loop stands at the claim, and how fast the file
    // comes, decide on which pass that is.
    await expect.poll(() => imageShown(player, image.id), { timeout: 60_000 }).toBe(true);
    await screenshot(player, 'player-image');
    await expect.poll(() => current(player), { timeout: 60_000 }).toEqual({ kind: 'video', fileId: video.id, visible: true });
    const videoTime = () =>
      player.evaluate(() => document.querySelector<HTMLVideoElement>('#stage > .layer[data-state="current"] video')?.currentTime ?? -1);
    await expect.poll(videoTime, { timeout: 20_000 }).toBeGreaterThan(0);
    const first = await videoTime();
    await expect.poll(videoTime, { timeout: 20_000 }).toBeGreaterThan(first);
    await screenshot(player, 'player-video');
    // And the slide, drawn by the renderer the console's preview uses.
    await expect.poll(() => current(player), { timeout: 60_000 }).toEqual({ kind: 'slide', fileId: undefined, visible: true });
    await expect(player.locator('#stage > .layer[data-state="current"] [data-widget="text"]')).toHaveText('Welcome to the lobby');
    await expect(player.locator('#stage > .layer[data-state="current"] [data-widget="clock"]')).toHaveText(/^\d\d:\d\d$/);
    await screenshot(player, 'player-slide');

    // Proof of play: the plays so far reach the server in an NDJSON batch it accepts.
    const upload = await uploaded;
    expect(upload.status()).toBe(202);
    expect(upload.request().headers()['content-type']).toBe('application/x-ndjson');
    const accepted = (await upload.json()) as { accepted: number; duplicates: number; rejected: unknown[] };
    expect(accepted.rejected).toEqual([]);
    expect(accepted.accepted).toBeGreaterThan(0);
    const lines = upload
      .request()
      .postData()!
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { fileId?: string; campaignId?: number; contentId?: string });
    // Each names the file, the playlist it is part of and the channel.
    for (const e of lines) {
      expect(e).toMatchObject(
        e.fileId ? { contentId: loop.id, campaignId: expect.any(Number) } : { contentId: slide.id, campaignId: expect.any(Number) },
      );
      if (e.fileId) expect([image.id, video.id]).toContain(e.fileId);
    }

    // Frame rate, memory and network samples are accepted too.
    const metrics = await metricsSent;
    expect(metrics.status()).toBe(202);
    expect(((await metrics.json()) as { rejected: unknown[] }).rejected).toEqual([]);
    expect((JSON.parse(metrics.request().postData()!) as { samples: { type: string }[] }).samples.map((m) => m.type)).toEqual(
      expect.arrayContaining(['FPS', 'NET_APP_RX']),
    );

    // The report counts them: the screen's plays of the last hour by media file.
    const report = new URLSearchParams({
      customerId: String(customer.id),
      from: String(Date.now() - 3_600_000),
      timeZone: 'UTC',
      resolution: 'TOTAL',
      groupBy: 'MEDIA_FILE',
    });
    const played = async () => {
      const body = await api<{ rows: { groupBy: { id: string; name: string }; impressionStartCount: number; duration: number }[] }>(
        request,
        token,
        'GET',
        `/api/v2/proof-of-display/device/${screenId}?${report}`,
      );

      return Object.fromEntries(body.rows.map((r) => [r.groupBy.name, r.impressionStartCount > 0 && r.duration > 0]));
    };
    await expect.poll(played, { timeout: 60_000 }).toMatchObject({ 'poster.png': true });
    await expect.poll(played, { timeout: 60_000 }).toMatchObject({ 'poster.png': true, 'clip.webm': true });

    // Settings from the console reach the player with its manifest (manifestChanged): brightness as a dimming
    // overlay, the screen's name shown; what plays goes on.
    const screens = `customerId=${customer.id}&search=${encodeURIComponent(`deviceGroupId=${lobby.id}`)}`;
    await api(request, token, 'POST', `/api/v2/device/brightness?${screens}&level=40`);
    await api(request, token, 'POST', `/api/v2/device/showName?${screens}&enabled=true`);
    await expect(player.locator('#name')).toHaveText('Lobby browser', { timeout: 30_000 });
    await expect.poll(() => player.locator('#dim').evaluate((n) => getComputedStyle(n).opacity)).toBe('0.6');
    await expect(player.locator('#stage > .layer[data-state="current"]')).toHaveCount(1);
    await screenshot(player, 'player-dimmed-name');

    // Working hours, read in the screen's time zone: only a day two days off today leaves the screen black with
    // nothing playing; every day all day brings the loop back.
    const { timeZone } = await api<{ timeZone: string }>(request, token, 'GET', `/api/v2/device/${screenId}`);
    const weekday = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'short' })
      .format(Date.now() + 2 * 86_400_000)
      .slice(0, 3)
      .toUpperCase();
    await api(request, token, 'POST', `/api/v2/device/workingHours?${screens}`, {
      mode: 'SCREEN',
      days: { [weekday]: { from: '08:00', to: '18:00' } },
    });
    await expect(player.locator('body')).toHaveAttribute('data-power', 'off', { timeout: 30_000 });
    await expect(player.locator('#blackout')).toBeVisible();
    await expect(player.locator('#stage > .layer')).toHaveCount(0);
    const everyDay = Object.fromEntries(['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'].map((d) => [d, { from: '00:00', to: '00:00' }]));
    await api(request, token, 'POST', `/api/v2/device/workingHours?${screens}`, { mode: 'SCREEN', days: everyDay });
    await expect(player.locator('body')).toHaveAttribute('data-power', 'on', { timeout: 30_000 });
    await expect(player.locator('#blackout')).toBeHidden();
    await expect.poll(() => current(player), { timeout: 30_000 }).toMatchObject({ visible: true });

    // A restart from the console: the player acknowledges it over its WebSocket and reloads, still paired.
    const deviceId = await player.locator('body').getAttribute('data-device-id');
    await expect(player.locator('body')).toHaveAttribute('data-offline-ready', 'true', { timeout: 60_000 });
    const reloaded = player.waitForEvent('load');
    await page.getByRole('button', { name: 'Restart' }).click();
    // A restart interrupts the screen: it asks first, naming the screen.
    await page
      .getByRole('alertdialog', { name: /^Restart .+\?$/ })
      .getByRole('button', { name: 'Restart' })
      .click();
    const history = page.getByRole('list', { name: 'Recent commands' });
    await expect(history.getByRole('listitem').filter({ hasText: 'restart' })).toContainText('Done', { timeout: 30_000 });
    await reloaded;
    await expect(player.locator('body')).toHaveAttribute('data-state', 'playing', { timeout: 30_000 });
    await expect(player.locator('body')).toHaveAttribute('data-device-id', deviceId!);
    await expect(player.locator('#pairing')).toBeHidden();
    expect(errors).toEqual([]);
    expect(playerErrors).toEqual([]);

    // Media now comes from the service worker's cache; with the network gone a reload still plays.
    const source = () =>
      player.evaluate(() => document.querySelector('#stage > .layer[data-state="current"] :is(img, video)')?.getAttribute('src') ?? '');
    await expect.poll(source, { timeout: 60_000 }).toContain('/player/media/');

    // The playlist changes (the poster becomes a portrait): the player downloads the portrait into the worker's
    // cache while the old loop plays, switches to the new manifest only then, and removes the poster afterwards.
    const portrait = await uploadFile(request, token, customer.id, PORTRAIT);
    const cachedIds = () =>
      player.evaluate(async () =>
        (await (await caches.open('player-media')).keys()).map((r) => decodeURIComponent(new URL(r.url).pathname.split('/').pop() ?? '')),
      );
    const etagBefore = (await player.locator('body').getAttribute('data-manifest-etag'))!;
    expect(await cachedIds()).toContain(image.id);
    await api(request, token, 'PUT', `/api/simpleLoop/${loop.id}`, loopBody('portrait', portrait.id));
    await expect(player.locator('body')).not.toHaveAttribute('data-manifest-etag', etagBefore, { timeout: 30_000 });
    expect(await cachedIds()).toContain(portrait.id);
    await expect.poll(cachedIds, { timeout: 30_000 }).not.toContain(image.id);
    expect(await cachedIds()).toContain(video.id);

    await screenContext.setOffline(true);
    await player.reload();
    await expect(player.locator('body')).toHaveAttribute('data-state', 'playing', { timeout: 30_000 });
    await expect.poll(() => current(player), { timeout: 60_000 }).toEqual({ kind: 'video', fileId: video.id, visible: true });
    const offlineStart = await videoTime();
    await expect.poll(videoTime, { timeout: 20_000 }).toBeGreaterThan(offlineStart);
    await expect.poll(() => imageShown(player, portrait.id), { timeout: 60_000 }).toBe(true);
    await screenshot(player, 'player-offline');

    // The plays made meanwhile wait in the player's IndexedDB queue, and reach the server once it is back.
    const queued = () =>
      player.evaluate(
        () =>
          new Promise<number>((resolve, reject) => {
            const open = indexedDB.open('signage-player');
            open.onerror = () => reject(open.error);
            open.onsuccess = () => {
              const count = open.result.transaction('plays').objectStore('plays').count();
              count.onerror = () => reject(count.error);
              count.onsuccess = () => {
                open.result.close();
                resolve(count.result);
              };
            };
          }),
      );
    await expect.poll(queued, { timeout: 60_000 }).toBeGreaterThan(0);
    const playCount = async () => {
      const body = await api<{ rows: { impressionStartCount: number }[] }>(
        request,
        token,
        'GET',
        `/api/v2/proof-of-display/device/${screenId}?${report}`,
      );

      return body.rows.reduce((sum, r) => sum + r.impressionStartCount, 0);
    };
    const beforeReturn = await playCount();
    const waiting = await queued();
    await screenContext.setOffline(false);
    await expect.poll(playCount, { timeout: 120_000 }).toBeGreaterThanOrEqual(beforeReturn + waiting);
  } finally {
    await screenContext.close();
  }
});

test('a file still on its way when its slot ends is not reported as played; its plays count from its first frame', async ({
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const suffix = uniqueSuffix();
  const admin = await passwordGrant(request);
  const customer = await createCustomer(request, admin.access_token, `Late file ${suffix}`);
  const owner = await createUser(request, admin.access_token, customer.id, 'OWNER', 'Late Owner', suffix);
  const token = (await passwordGrant(request, owner.email, owner.password)).access_token;
  const image = await uploadFile(request, token, customer.id, PNG);
  const contentRoot = await rootGroupId(request, token, 'contentGroup');
  const screensRoot = await rootGroupId(request, token, 'deviceGroup');
  const slide = await api<{ id: string }>(request, token, 'POST', `/api/content?contentGroupId=${contentRoot}`, {
    name: 'Between',
    structureType: 'SLIDE',
    data: {
      Main: {
        pageStyle: { backgroundColor: '#0f766e' },
        pageData: { screenSize: { width: 1920, height: 1080 }, durationMs: 3_000 },
        widgets: [],
      },
    },
  });
  const loop = await api<{ id: string }>(request, token, 'POST', `/api/simpleLoop?contentGroupId=${contentRoot}`, {
    name: 'Late loop',
    simpleLoopType: 'NORMAL',
    version: '2.0',
    data: {
      loopData: { resolution: { width: 1920, height: 1080 } },
      slides: [
        { key: 'poster', type: 'FILE', id: image.id, durationMs: 3_000 },
        { key: 'between', type: 'CONTENT', id: slide.id, durationMs: 3_000 },
      ],
    },
  });
  await api(request, token, 'POST', '/api/campaign', contentChannel('Late channel', loop.id, screensRoot));

  // Without a service worker every file request is the page's own, so the image's can be held back.
  const screenContext = await browser.newContext({ viewport: { width: 1280, height: 720 }, baseURL, serviceWorkers: 'block' });
  const player = await screenContext.newPage();
  const playerErrors = collectConsoleErrors(player);
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let heldRequests = 0;
  await player.route(
    (url) => url.pathname.includes(image.id),
    async (route) => {
      heldRequests++;
      await held;
      await route.continue();
    },
  );
  const reported: { fileId?: string; startedAt: number; endedAt: number }[] = [];
  player.on('request', (req) => {
    if (req.method() === 'POST' && req.url().endsWith('/api/display/proofOfPlay'))
      reported.push(
        ...req
          .postData()!
          .trimEnd()
          .split('\n')
          .map((l) => JSON.parse(l) as (typeof reported)[number]),
      );
  });
  try {
    await player.goto('/player');
    const code = player.getByTestId('activation-code');
    await expect(code).toHaveText(/^\d{4}$/, { timeout: 20_000 });
    await api(request, token, 'POST', '/api/v2/device/assignToCustomer', {
      activationCode: await code.textContent(),
      deviceName: 'Late file',
      timeZone: 'UTC',
      licenseStatus: 'UN_LICENSED',
    });

    // The image's slot comes and goes while its file is held: nothing of it was seen.
    await expect.poll(() => current(player), { timeout: 60_000 }).toMatchObject({ kind: 'image', fileId: image.id });
    await expect.poll(() => current(player), { timeout: 30_000 }).toMatchObject({ kind: 'slide' });
    expect(heldRequests).toBeGreaterThan(0);
    await player.waitForTimeout(1_000);
    const releasedAt = Date.now();
    release();
    await expect.poll(() => imageShown(player, image.id), { timeout: 30_000 }).toBe(true);

    // Its plays, uploaded once a pass with the file has ended, all begin after the file came.
    const imagePlays = () => reported.filter((e) => e.fileId === image.id);
    await expect.poll(() => imagePlays().length, { timeout: 90_000 }).toBeGreaterThan(0);
    for (const play of imagePlays()) expect(play.startedAt).toBeGreaterThanOrEqual(releasedAt - 250);
    expect(reported.filter((e) => !e.fileId).length).toBeGreaterThan(0);
    expect(playerErrors).toEqual([]);
  } finally {
    await screenContext.close();
  }
});
