#!/usr/bin/env node
// `npm run bench:player`: the web player in Chromium (issue 15): the time from the claim to the first frame of
// content, and the frames between items. Written to the player section of docs/benchmarks.md (between
// <!-- player:start --> and <!-- player:end -->; the rest is left as it is).
//
// The production server (dist/server/main.mjs, PGlite in a fresh DATA_DIR, pinned to the server core) serves
// the player bundle (rebuilt first, so the figures are the current player's). Chromium (playwright-core,
// /usr/bin/chromium, headless, not pinned) makes the media: colour images (canvas → PNG) and colour videos
// (canvas → MediaRecorder WebM) that are nowhere black, so a black frame means that nothing was painted. They
// are uploaded through the API into a playlist of images and videos alternating, in a channel for the tenant's
// root screen folder.
//
// What is seen is sampled in the page on every animation frame (an init script, not part of the player): the
// element at the centre of the screen; a frame shows content when it is an image that has loaded or a video
// with a current frame that is not black (drawn to a 4 × 4 canvas), otherwise it is a gap (black / nothing).
//   1. Claim → first frame: a fresh browser context opens /player/, the script claims its code through
//      `POST /api/v2/device/assignToCustomer`, and the first frame that shows content is timed from just
//      before that call. The player's own marks (`player:claimed`, `player:manifest`, `player:first-frame`)
//      say where the time goes. Baseline in the same run: a plain page holding one of the same images
//      (navigation → first frame with the image), also in a fresh context.
//   2. Gaps: one player plays the loop for BENCH_PLAYER_SECONDS; every change of item is a transition, and a
//      transition with any gap frame between the last frame of one item and the first of the next counts as a gap.
//
// Options (environment): BENCH_PLAYER_CLAIMS (5), BENCH_PLAYER_SECONDS (60), BENCH_PLAYER_ITEM_MS (2500),
// BENCH_OUT (docs/benchmarks.md).
/* global HTMLImageElement, HTMLVideoElement, MediaRecorder, indexedDB, innerWidth, innerHeight -- code run in the page */
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import {
  SERVER_CPU,
  benchServerIdentity,
  cleanupActions,
  fmt,
  freePort,
  hasTaskset,
  installGuards,
  log,
  machine,
  num,
  passwordToken,
  percentile,
  runMain,
  saveResults,
  setLogPrefix,
  sleep,
  spawnNode,
  stopChild,
  tempDirs,
  waitForReady,
  writeSection,
} from '../bench/lib.mjs';
import { buildPlayer } from './build-player.mjs';

setLogPrefix('bench-player');
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLAIMS = num('BENCH_PLAYER_CLAIMS', 5);
const SECONDS = num('BENCH_PLAYER_SECONDS', 60);
const ITEM_MS = num('BENCH_PLAYER_ITEM_MS', 2_500);
const OUT = process.env.BENCH_OUT ?? join(root, 'docs', 'benchmarks.md');
const MARKERS = { start: '<!-- player:start -->', end: '<!-- player:end -->' };
const VIEWPORT = { width: 1280, height: 720 };
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const IMAGES = [
  ['red', '#dc2626'],
  ['green', '#16a34a'],
  ['blue', '#2563eb'],
  ['amber', '#d97706'],
];
/** Uploaded and added to the playlist while the loop plays (a manifest change with a file to download). */
const ADDED = ['cyan', '#0891b2'];
const VIDEOS = [
  ['teal', '#0d9488'],
  ['violet', '#7c3aed'],
  ['pink', '#db2777'],
];

const { env: baseEnv, credentials } = benchServerIdentity();
const watchdog = installGuards(30);

/**
 * Runs in every document before its own scripts: on each animation frame, whether the centre of the screen
 * shows content, and which (the player's layer key, or `img` on the baseline page). `null` is a gap.
 */
function sampler() {
  const frames = [];
  const canvas = document.createElement('canvas');
  canvas.width = 4;
  canvas.height = 4;
  let ctx;
  const picture = (el) => {
    if (el instanceof HTMLImageElement) return el.complete && el.naturalWidth > 0;
    if (el instanceof HTMLVideoElement) {
      if (el.readyState < 2) return false;
      ctx ??= canvas.getContext('2d', { willReadFrequently: true });
      ctx.clearRect(0, 0, 4, 4);
      ctx.drawImage(el, 0, 0, 4, 4);
      const d = ctx.getImageData(0, 0, 4, 4).data;
      let light = 0;
      for (let i = 0; i < d.length; i += 4) light += (d[i] + d[i + 1] + d[i + 2]) * (d[i + 3] / 255);
      return light / 16 / 3 > 24;
    }
    return true;
  };
  const tick = (t) => {
    const el = document.elementFromPoint(innerWidth / 2, innerHeight / 2);
    const layer = el?.closest?.('#stage > .layer');
    let key = null;
    if (layer && picture(el)) key = layer.dataset.key ?? '?';
    else if (!layer && el instanceof HTMLImageElement && picture(el)) key = 'img';
    frames.push([performance.timeOrigin + t, key, document.body?.dataset.manifestEtag ?? null]);
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  window.__benchFrames = frames;
}

/** The first frame showing content at or after `since` (epoch ms), or undefined. */
const firstContentFrame = (page, since) =>
  page.evaluate((s) => window.__benchFrames.find(([t, key]) => key !== null && t >= s)?.[0], since);

async function waitFirstFrame(page, since, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const t = await firstContentFrame(page, since);
    if (t !== undefined) return t;
    if (Date.now() > deadline) throw new Error('no frame of content within 60 s');
    await sleep(50);
  }
}

// ---------------------------------------------------------------- server and API

async function startServer() {
  const port = await freePort();
  const dataDir = mkdtempSync(join(os.tmpdir(), 'signage-bench-player-'));
  tempDirs.push(dataDir);
  const base = `http://127.0.0.1:${port}`;
  const child = spawnNode(
    'player-server',
    [join(root, 'dist', 'server', 'main.mjs')],
    { ...baseEnv, PORT: String(port), DATA_DIR: dataDir, NEXTAUTH_URL: base },
    root,
  );
  const started = Date.now();
  await waitForReady(`${base}/readyz`, child);
  log(`production server ready on :${port} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return { base, child };
}

function client(base, token) {
  return async (method, path, body) => {
    const init = { method, headers: { authorization: `Bearer ${token}` } };
    if (body instanceof FormData) init.body = body;
    else if (body !== undefined) {
      init.body = JSON.stringify(body);
      init.headers['content-type'] = 'application/json';
    }
    const res = await fetch(`${base}${path}`, init);
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 500)}`);
    return text ? JSON.parse(text) : undefined;
  };
}

/** Colour images and videos made in the browser: `{ name, type, bytes }`. */
async function makeMedia(browser) {
  const page = await browser.newPage();
  try {
    return await page.evaluate(
      async ({ images, videos, videoMs }) => {
        // Speckles of light colours: pictures of a realistic size that are nowhere black.
        const speckle = (g, n) => {
          for (let i = 0; i < n; i++) {
            g.fillStyle = `hsl(${Math.random() * 360} 70% ${40 + Math.random() * 40}%)`;
            g.fillRect(Math.random() * 1280, Math.random() * 720, 4 + Math.random() * 12, 4 + Math.random() * 12);
          }
        };
        const canvasOf = (color, label) => {
          const c = document.createElement('canvas');
          c.width = 1280;
          c.height = 720;
          const g = c.getContext('2d');
          g.fillStyle = color;
          g.fillRect(0, 0, c.width, c.height);
          speckle(g, 6_000);
          g.fillStyle = '#fff';
          g.font = 'bold 96px sans-serif';
          g.fillText(label, 80, 200);
          return { c, g };
        };
        const bytes = async (blob) => [...new Uint8Array(await blob.arrayBuffer())];
        const out = [];
        for (const [label, color] of images) {
          const { c } = canvasOf(color, label);
          out.push({ name: `${label}.png`, type: 'image/png', bytes: await bytes(await new Promise((r) => c.toBlob(r, 'image/png'))) });
        }
        const recorded = await Promise.all(
          videos.map(async ([label, color]) => {
            const { c, g } = canvasOf(color, label);
            const stream = c.captureStream(30);
            const recorder = new MediaRecorder(stream, { mimeType: 'video/webm;codecs=vp8', videoBitsPerSecond: 2_000_000 });
            const chunks = [];
            recorder.ondataavailable = (e) => chunks.push(e.data);
            const stopped = new Promise((r) => (recorder.onstop = r));
            recorder.start(250);
            const began = performance.now();
            // A moving bar and new speckles: the video's frames differ (as a real clip's do).
            while (performance.now() - began < videoMs) {
              speckle(g, 300);
              g.fillStyle = color;
              g.fillRect(0, 600, c.width, 120);
              g.fillStyle = '#fff';
              g.fillRect(((performance.now() - began) / videoMs) * c.width, 600, 40, 120);
              await new Promise((r) => requestAnimationFrame(r));
            }
            recorder.stop();
            await stopped;
            return { name: `${label}.webm`, type: 'video/webm', bytes: await bytes(new Blob(chunks, { type: 'video/webm' })) };
          }),
        );
        return [...out, ...recorded];
      },
      { images: [...IMAGES, ADDED], videos: VIDEOS, videoMs: ITEM_MS + 1_000 },
    );
  } finally {
    await page.close();
  }
}

/** A tenant whose root screen folder gets a channel playing images and videos alternating, ITEM_MS each. */
async function seed(base, browser) {
  const admin = client(base, await passwordToken(base, credentials));
  const customer = await admin('POST', '/api/customer', { name: 'Player bench' });
  const owner = { email: `player-bench-owner@example.com`, password: `Owner-${Math.random().toString(36).slice(2)}-Pass` };
  await admin('POST', `/api/user/?customerId=${customer.id}`, { ...owner, name: 'Bench Owner', role: 'OWNER' });
  const api = client(base, await passwordToken(base, { ...credentials, email: owner.email, password: owner.password }));
  const made = await makeMedia(browser);
  const added = made.find((m) => m.name === `${ADDED[0]}.png`);
  const media = made.filter((m) => m !== added);
  const upload = async (m) => {
    const form = new FormData();
    form.append('files', new Blob([Uint8Array.from(m.bytes)], { type: m.type }), m.name);
    return (await api('POST', `/api/file?customerId=${customer.id}`, form))[0];
  };
  const files = {};
  for (const m of media) files[m.name] = await upload(m);
  const contentRoot = (await api('GET', `/api/v2/contentGroup?search=${encodeURIComponent('parentId=NULL')}`)).content[0].id;
  const screensRoot = (await api('GET', `/api/v2/deviceGroup?search=${encodeURIComponent('parentId=NULL')}`)).content[0].id;
  const order = [];
  for (let i = 0; i < Math.max(IMAGES.length, VIDEOS.length); i++) {
    if (IMAGES[i]) order.push(`${IMAGES[i][0]}.png`);
    if (VIDEOS[i]) order.push(`${VIDEOS[i][0]}.webm`);
  }
  const loopBody = (ids) => ({
    name: 'Bench loop',
    simpleLoopType: 'NORMAL',
    version: '2.0',
    data: { loopData: { resolution: VIEWPORT }, slides: ids.map((id, i) => ({ key: `i${i}`, type: 'FILE', id, durationMs: ITEM_MS })) },
  });
  const ids = order.map((name) => files[name].id);
  const loop = await api('POST', `/api/simpleLoop?contentGroupId=${contentRoot}`, loopBody(ids));
  await api('POST', '/api/campaign', {
    name: 'Bench channel',
    enabled: true,
    level: 'WIDGET',
    type: 'CONTENT',
    version: '2.0',
    contentShuffleMode: 'SERIAL',
    contentAssignment: { assignments: [{ contentId: loop.id, weight: 1 }] },
    deviceGroupAssignment: { assignments: [{ deviceGroupId: screensRoot }] },
  });
  const sizes = media.map((m) => m.bytes.length);
  log(
    `seeded ${media.length} files (${fmt(Math.min(...sizes))}–${fmt(Math.max(...sizes))} bytes) in a loop of ${order.length} items of ${ITEM_MS} ms`,
  );
  const screens = `customerId=${customer.id}&search=${encodeURIComponent(`deviceGroupId=${screensRoot}`)}`;
  return {
    api,
    customerId: customer.id,
    items: order.length,
    media: media.map((m) => ({ name: m.name, bytes: m.bytes.length })),
    added: { name: added.name, bytes: added.bytes.length },
    // The two manifest changes made while the loop plays.
    showName: () => api('POST', `/api/v2/device/showName?${screens}&enabled=true`),
    addImage: async () => api('PUT', `/api/simpleLoop/${loop.id}`, loopBody([...ids, (await upload(added)).id])),
  };
}

// ---------------------------------------------------------------- measurements

async function newPage(browser) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  await context.addInitScript(sampler);
  const page = await context.newPage();
  return { context, page };
}

/** Opens a player, claims it and times the first frame. Keeps the page open when `keep`. */
async function claimRun(browser, base, seeded, n, keep = false) {
  const { context, page } = await newPage(browser);
  await page.goto(`${base}/player/`);
  const code = page.getByTestId('activation-code');
  await code.waitFor({ state: 'visible', timeout: 30_000 });
  let activationCode = '';
  for (let i = 0; i < 200 && !/^\d{4}$/.test(activationCode); i++) {
    activationCode = (await code.textContent()) ?? '';
    if (!/^\d{4}$/.test(activationCode)) await sleep(50);
  }
  // The player's screen is painted and idle before the claim.
  await sleep(1_000);
  const claimAt = Date.now();
  await seeded.api('POST', `/api/v2/device/assignToCustomer?customerId=${seeded.customerId}`, {
    activationCode,
    deviceName: `Bench screen ${n}`,
    timeZone: 'UTC',
    licenseStatus: 'UN_LICENSED',
  });
  const answeredAt = Date.now();
  const first = await waitFirstFrame(page, claimAt);
  const marks = await page.evaluate(() =>
    Object.fromEntries(performance.getEntriesByType('mark').map((m) => [m.name, performance.timeOrigin + m.startTime])),
  );
  const since = (name) => (marks[name] === undefined ? undefined : marks[name] - claimAt);
  const r = {
    firstFrameMs: first - claimAt,
    claimCallMs: answeredAt - claimAt,
    claimedMs: since('player:claimed'),
    manifestMs: since('player:manifest'),
    markFirstFrameMs: since('player:first-frame'),
  };
  log(
    `claim ${n}: first frame after ${r.firstFrameMs.toFixed(0)} ms (claim call ${r.claimCallMs} ms, heard ${r.claimedMs?.toFixed(0)} ms, manifest ${r.manifestMs?.toFixed(0)} ms, player mark ${r.markFirstFrameMs?.toFixed(0)} ms)`,
  );
  if (keep) return { r, context, page };
  await context.close();
  return { r };
}

/** The URL of one of the images, read from the player's stored manifest. */
function imageUrl(page) {
  return page.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open('signage-player');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const get = open.result.transaction('kv').objectStore('kv').get('manifest');
          get.onsuccess = () => resolve(Object.values(get.result.files).find((f) => f.contentType === 'image/png')?.url);
          get.onerror = () => reject(get.error);
        };
      }),
  );
}

/**
 * A plain page on the server's origin holding one of the same images, in a fresh context: navigation → first
 * frame with the image. The page itself is answered by Playwright (the server has no such page); the image
 * comes from the server.
 */
async function baselineRun(browser, base, url, n) {
  const { context, page } = await newPage(browser);
  try {
    const pageUrl = `${base}/__bench-baseline.html`;
    await page.route(pageUrl, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><body style="margin:0;background:#000"><img src="${url}" alt="" style="width:100vw;height:100vh;object-fit:contain;display:block"></body>`,
      }),
    );
    const at = Date.now();
    await page.goto(pageUrl);
    const first = await waitFirstFrame(page, at);
    log(`baseline ${n}: first frame after ${(first - at).toFixed(0)} ms`);
    return first - at;
  } finally {
    await context.close();
  }
}

/** Frames of a playing loop → transitions and the gap frames between items. */
function analyse(frames) {
  const start = frames.findIndex(([, key]) => key !== null);
  const seen = frames.slice(Math.max(0, start));
  const intervals = [];
  for (let i = 1; i < seen.length; i++) intervals.push(seen[i][0] - seen[i - 1][0]);
  const frameMs = percentile(intervals, 50) ?? 0;
  const transitions = [];
  let last = seen[0];
  let gapFrames = 0;
  for (const frame of seen.slice(1)) {
    const [t, key] = frame;
    if (key === null) {
      gapFrames++;
      continue;
    }
    if (key !== last[1]) transitions.push({ from: last[1], to: key, gapFrames, switchMs: t - last[0] });
    gapFrames = 0;
    last = frame;
  }
  const gaps = transitions.filter((x) => x.gapFrames > 0);
  const switchMs = transitions.map((x) => x.switchMs);
  return {
    frames: seen.length,
    seconds: seen.length ? (seen.at(-1)[0] - seen[0][0]) / 1000 : 0,
    frameMs,
    longFrames: intervals.filter((x) => x > 50).length,
    transitions: transitions.length,
    gapTransitions: gaps.length,
    gapFrames: gaps.reduce((s, x) => s + x.gapFrames, 0),
    longestGapMs: gaps.length ? Math.max(...gaps.map((x) => x.switchMs)) : 0,
    switchP50: percentile(switchMs, 50),
    switchMax: switchMs.length ? Math.max(...switchMs) : undefined,
    trailingGapFrames: gapFrames,
  };
}

/** The time from `at` to the first frame painted with another manifest than the one before `at`. */
function appliedAfter(frames, at) {
  const before = frames.findLast(([t]) => t < at)?.[2];
  const first = frames.find(([t, , etag]) => t >= at && etag !== before);
  return first ? first[0] - at : undefined;
}

async function loopRun(page, seeded) {
  // From a clean slate: the frames of the claim are not part of the loop.
  await page.evaluate(() => window.__benchFrames.splice(0));
  log(`playing the loop for ${SECONDS} s, with two manifest changes`);
  const startedAt = Date.now();
  // A third of the way: a setting (the same loop plays on); two thirds: an image added to the playlist, whose
  // file the player downloads before it switches.
  await sleep((SECONDS * 1_000) / 3);
  const showNameAt = Date.now();
  await seeded.showName();
  await sleep((SECONDS * 1_000) / 3);
  const addImageAt = Date.now();
  await seeded.addImage();
  await sleep(startedAt + SECONDS * 1_000 - Date.now());
  const frames = await page.evaluate(() => window.__benchFrames.splice(0));
  const fromCache = await page.evaluate(() => document.body.dataset.offlineReady === 'true');
  const played = frames.filter(([t]) => t >= startedAt);
  const r = { ...analyse(played), fromCache, showNameMs: appliedAfter(played, showNameAt), addImageMs: appliedAfter(played, addImageAt) };
  log(
    `loop: ${r.transitions} transitions, ${r.gapTransitions} with a gap (${r.gapFrames} gap frames, longest ${r.longestGapMs.toFixed(0)} ms), frame ${r.frameMs.toFixed(1)} ms, switch p50 ${r.switchP50?.toFixed(1)} ms, max ${r.switchMax?.toFixed(1)} ms; manifest changes applied after ${r.showNameMs?.toFixed(0)} ms (showName) and ${r.addImageMs?.toFixed(0)} ms (image added)`,
  );
  return r;
}

// ---------------------------------------------------------------- report

const median = (xs) => percentile(xs, 50);

function report({ startedAt, finishedAt, seeded, claims, baseline, loop, chromiumVersion, loadBefore, loadAfter }) {
  const m = machine();
  const ms = (x) => (x === undefined ? '—' : fmt(x, 0));
  const row = (label, xs) => `| ${label} | ${ms(median(xs))} | ${ms(Math.min(...xs))} | ${ms(Math.max(...xs))} |`;
  const col = (k) => claims.map((c) => c[k]).filter((x) => x !== undefined);
  const ratio = median(col('firstFrameMs')) / median(baseline);
  return [
    MARKERS.start,
    '## Web player in Chromium (`npm run bench:player`)',
    '',
    '_Written by scripts/bench-player.mjs into this marked section only._',
    '',
    `- Date: ${startedAt.toISOString()} (run took ${Math.round((finishedAt - startedAt) / 1000)} s)`,
    `- Machine: ${m.cpu}, ${m.memory} RAM, ${m.os}; Node.js ${m.node}; Chromium ${chromiumVersion} headless (\`--disable-gpu\`: software compositing); 1-minute load average ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after (other work on the machine shows here)`,
    `- Server: the production server (\`dist/server/main.mjs\`, PGlite, \`NODE_ENV=production\`, \`LOG_LEVEL=warn\`)${hasTaskset ? `, pinned to core ${SERVER_CPU}; Chromium not pinned` : ''}; everything on 127.0.0.1.`,
    `- Content: a channel for the tenant's root screen folder playing one playlist of ${seeded.items} items, images and videos alternating, ${fmt(ITEM_MS)} ms each: ${seeded.media.map((x) => `${x.name} (${fmt(x.bytes)} bytes)`).join(', ')}, made in Chromium (1280 × 720 PNGs; 1280 × 720 VP8 WebM at 2 Mbit/s, 30 fps, a moving bar; light speckles everywhere), nowhere black.`,
    "- Seen: an init script samples, on every animation frame, the element at the centre of the screen: content when it is an image that has loaded or a video with a current frame that is not black (drawn to a 4 × 4 canvas); anything else (the stage's black, a video without a frame) is a gap.",
    '',
    `**Claim → first frame** (${claims.length} players, each a fresh browser context that has shown its code for 1 s; time from just before \`POST /api/v2/device/assignToCustomer\` to the first frame that shows content). Baseline in the same run: a plain page holding one of the same images, in a fresh context (navigation start → first frame with the image).`,
    '',
    '| ms | median | min | max |',
    '|---|---:|---:|---:|',
    row('claim → first frame of content', col('firstFrameMs')),
    row('… the claim call answered', col('claimCallMs')),
    row('… the player heard it (`player:claimed`: WebSocket `assigned`)', col('claimedMs')),
    row('… manifest applied (`player:manifest`)', col('manifestMs')),
    row("… the player's `player:first-frame` mark", col('markFirstFrameMs')),
    row('baseline: plain image page load → first frame', baseline),
    '',
    `Claim → first frame is ${ratio.toFixed(1)}× the plain image page load (medians).`,
    '',
    `**Gaps between items**: one player playing the loop for ${SECONDS} s${loop.fromCache ? " (media from the service worker's cache by then)" : ''}, with two manifest changes pushed to it (\`manifestChanged\`): a third of the way \`showName\` (a setting: the same loop plays on), applied ${fmt(loop.showNameMs)} ms after the command was sent; two thirds of the way ${seeded.added.name} (${fmt(seeded.added.bytes)} bytes) uploaded and added to the playlist (a new loop, whose new file the player downloads into its cache before it switches), applied ${fmt(loop.addImageMs)} ms after the upload and playlist change were sent (applied: the first frame painted under the new manifest). A transition is a change of the item seen; it has a gap when any frame between the last frame of one item and the first of the next showed no content.`,
    '',
    '| frames | seconds | frame ms (p50) | frames > 50 ms apart | transitions | with a gap | gap frames | longest gap ms | switch ms p50 / max |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    `| ${fmt(loop.frames)} | ${fmt(loop.seconds, 1)} | ${fmt(loop.frameMs, 1)} | ${fmt(loop.longFrames)} | ${fmt(loop.transitions)} | ${fmt(loop.gapTransitions)} | ${fmt(loop.gapFrames)} | ${fmt(loop.longestGapMs, 0)} | ${fmt(loop.switchP50, 1)} / ${fmt(loop.switchMax, 1)} |`,
    '',
    '"Switch ms" is the time from the last frame of one item to the first frame of the next: one frame interval when nothing was missed.',
    '',
    MARKERS.end,
  ].join('\n');
}

async function main() {
  const startedAt = new Date();
  const loadBefore = os.loadavg()[0];
  if (!existsSync(join(root, 'dist', 'server', 'main.mjs')) || !existsSync(join(root, '.next', 'BUILD_ID')))
    throw new Error('no production build: run `npm run build` first');
  await buildPlayer();
  const server = await startServer();
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  cleanupActions.push(() => browser.close());
  const chromiumVersion = browser.version();
  try {
    const seeded = await seed(server.base, browser);
    const claims = [];
    let kept;
    for (let n = 1; n <= CLAIMS; n++) {
      const run = await claimRun(browser, server.base, seeded, n, n === CLAIMS);
      claims.push(run.r);
      kept = run;
    }
    const url = await imageUrl(kept.page);
    const baseline = [];
    for (let n = 1; n <= CLAIMS; n++) baseline.push(await baselineRun(browser, server.base, url, n));
    const loop = await loopRun(kept.page, seeded);
    await kept.context.close();
    const finishedAt = new Date();
    const results = { seeded: { items: seeded.items, media: seeded.media, added: seeded.added }, claims, baseline, loop, chromiumVersion };
    saveResults(root, 'player', { startedAt, finishedAt, pgInfo: {}, results });
    writeSection(OUT, MARKERS, report({ startedAt, finishedAt, ...results, seeded, loadBefore, loadAfter: os.loadavg()[0] }));
    log(`written to ${OUT}`);
  } finally {
    await browser.close();
    await stopChild(server.child);
  }
}

void runMain(main, watchdog);
