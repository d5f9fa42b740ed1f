#!/usr/bin/env node
// A tiny player simulator for the player API (spec 4 §1–§3): registers (or reuses a saved device), shows
// the activation code, keeps the device WebSocket open (heartbeats, commands acknowledged at once) and
// hears when a tenant claims it. `--http` uses HTTP heartbeats instead of the socket. Once claimed it
// uploads a generated PNG screenshot (again for each `takeHighResPreview`, and every
// `minimumDelayBetweenPreviews` while `turnOnRapidPreviewMode` lasts) and sends CPU and memory samples
// with each heartbeat (POST /api/display/metrics).
//
//   node scripts/display-sim.mjs [--url http://localhost:3000] [--state ./data/sim-device.json]
//                                [--serial SN-1] [--type SCREEN] [--platform BROWSER] [--http] [--once]
//
// The state file keeps deviceId and deviceSecret (mode 0600), so a restarted simulator is the same device.
// The secret is never printed.
import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { parseArgs } from 'node:util';
import zlib from 'node:zlib';
import WebSocket from 'ws';

const { values: args } = parseArgs({
  options: {
    url: { type: 'string', default: process.env.SIGNAGE_URL ?? 'http://localhost:3000' },
    state: { type: 'string', default: './data/sim-device.json' },
    serial: { type: 'string' },
    type: { type: 'string', default: 'SCREEN' },
    platform: { type: 'string', default: 'BROWSER' },
    once: { type: 'boolean', default: false, description: 'one heartbeat after the claim, then exit' },
    http: { type: 'boolean', default: false, description: 'heartbeats over HTTP instead of the WebSocket' },
  },
});
const base = args.url.replace(/\/$/, '');
const log = (...parts) => console.log(new Date().toISOString(), ...parts);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function call(method, path, { token, json, headers = {}, form } = {}) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...headers,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(json !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    body: json !== undefined ? JSON.stringify(json) : form ? new URLSearchParams(form).toString() : undefined,
  });
  const text = await res.text();
  let body;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }

  return { status: res.status, headers: res.headers, body };
}

/** A PNG of `width` × `height` (RGB): a gradient whose hue moves with the time, so each screenshot differs. */
function screenshotPng(width = 320, height = 180) {
  const shift = Math.floor(Date.now() / 1000) % 256;
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1); // each row starts with filter type 0
    for (let x = 0; x < width; x++) {
      rows[row + 1 + x * 3] = (x + shift) % 256;
      rows[row + 2 + x * 3] = (y * 255) / height;
      rows[row + 3 + x * 3] = (shift * 3) % 256;
    }
  }
  const chunk = (type, data) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(Buffer.concat([Buffer.from(type), data])) >>> 0);

    return Buffer.concat([length, Buffer.from(type), data, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB

  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

async function uploadScreenshot(token, { highRes = false } = {}) {
  const image = highRes ? screenshotPng(1280, 720) : screenshotPng();
  const res = await fetch(`${base}/api/display/screenshot${highRes ? '?highRes=true' : ''}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'image/png' },
    body: image,
  });
  log(
    `screenshot (${image.length} bytes${highRes ? ', high resolution' : ''}): ${res.status}${res.status === 204 ? '' : ` ${await res.text()}`}`,
  );

  return res.status === 204;
}

let lastCpu = os.cpus();

/** CPU (percent busy since the last call), load, and memory (bytes) of this machine and process. */
function metricSamples() {
  const now = Date.now();
  const cpus = os.cpus();
  let busy = 0;
  let total = 0;
  cpus.forEach((cpu, i) => {
    const before = lastCpu[i]?.times ?? { user: 0, nice: 0, sys: 0, idle: 0, irq: 0 };
    const spent = Object.keys(cpu.times).reduce((sum, key) => sum + cpu.times[key] - (before[key] ?? 0), 0);
    total += spent;
    busy += spent - (cpu.times.idle - before.idle);
  });
  lastCpu = cpus;

  return [
    { type: 'CPU', timestamp: now, value: total > 0 ? Math.round((busy / total) * 1000) / 10 : 0 },
    { type: 'CPU_LOAD_1', timestamp: now, value: os.loadavg()[0] },
    { type: 'USED_SYS_MEM', timestamp: now, value: os.totalmem() - os.freemem() },
    { type: 'USED_APP_MEM', timestamp: now, value: process.memoryUsage().rss },
  ];
}

/** `turnOnRapidPreviewMode`: a screenshot every `minimumDelayBetweenPreviews` ms (at least 2 s) for `duration` ms. */
let rapidTimer;
function rapidPreviews(token, params) {
  clearInterval(rapidTimer);
  const every = Math.max(2000, Number(params.minimumDelayBetweenPreviews) || 5000);
  const until = Date.now() + (Number(params.duration) || 60_000);
  rapidTimer = setInterval(async () => {
    if (Date.now() >= until) return clearInterval(rapidTimer);
    await uploadScreenshot(await token()).catch((err) => log(`screenshot failed: ${err.message}`));
  }, every);
}

/** Carries out a command as far as a simulator can; answers the acknowledgement. */
/** CPU and memory samples (POST /api/display/metrics). */
async function sendMetrics(token) {
  const metrics = await call('POST', '/api/display/metrics', { token: await token(), json: { samples: metricSamples() } });
  if (metrics.status !== 202 || metrics.body.rejected.length > 0) log(`metrics answered ${metrics.status} ${JSON.stringify(metrics.body)}`);
}

/** Does what a command asks, as far as a simulator can; answers the acknowledgement. */
async function perform(command, token) {
  log(`command ${command.name} ${JSON.stringify(command.params)}`);
  switch (command.name) {
    case 'takeHighResPreview':
      return (await uploadScreenshot(await token(), { highRes: true }))
        ? { ok: true, result: { uploaded: true } }
        : { ok: false, error: 'screenshot upload failed' };
    case 'turnOnRapidPreviewMode':
      rapidPreviews(token, command.params);
      return { ok: true, result: { rapid: true } };
    default:
      return { ok: true, result: { simulated: true } };
  }
}

async function loadState() {
  try {
    return JSON.parse(await readFile(args.state, 'utf8'));
  } catch {
    return undefined;
  }
}

async function saveState(state) {
  await writeFile(args.state, JSON.stringify(state, null, 2), { mode: 0o600 });
}

async function register() {
  for (;;) {
    const res = await call('POST', '/public-api/display/register', {
      json: {
        type: args.type,
        platform: args.platform,
        version: 'sim-1.0',
        ...(args.serial ? { serial: args.serial } : {}),
        timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      },
    });
    if (res.status === 201) {
      const state = { deviceId: res.body.deviceId, deviceSecret: res.body.deviceSecret };
      await saveState(state);
      log(`registered device ${state.deviceId}`);
      if (res.body.activationCode)
        log(`ACTIVATION CODE ${res.body.activationCode} (until ${new Date(res.body.activationCodeExpiresAt).toISOString()})`);
      else log('taken over a pre-registered device (already assigned)');

      return { ...state, shownCode: res.body.activationCode };
    }
    const wait = Number(res.headers.get('retry-after') ?? 30);
    log(`register answered ${res.status} ${JSON.stringify(res.body)}; retrying in ${wait}s`);
    await sleep(wait * 1000);
  }
}

/** A device token, renewed a minute before it expires. */
function tokenSource(state) {
  let token;
  let renewAt = 0;

  return async (force = false) => {
    if (!force && token && Date.now() < renewAt) return token;
    const basic = Buffer.from(`${encodeURIComponent(state.deviceId)}:${encodeURIComponent(state.deviceSecret)}`).toString('base64');
    const res = await call('POST', '/oauth/token', {
      headers: { authorization: `Basic ${basic}` },
      form: { grant_type: 'client_credentials' },
    });
    if (res.status !== 200) throw Object.assign(new Error(`token: ${res.status} ${JSON.stringify(res.body)}`), { status: res.status });
    token = res.body.access_token;
    renewAt = Date.now() + (res.body.expires_in - 60) * 1000;

    return token;
  };
}

/** The unassigned screen: shows its code (renewed by the status call when it expires) until a tenant claims it. */
async function waitForClaim(token, state, claimed) {
  let lastCode = state.shownCode;
  while (!claimed.value) {
    const res = await call('GET', '/api/display/status', { token: await token() });
    if (res.status === 401) {
      await token(true);
      continue;
    }
    if (res.body?.assigned) {
      log(`claimed by a tenant: customer ${res.body.customerId} as '${res.body.name}' (${res.body.timeZone ?? 'no time zone'})`);

      return;
    }
    if (res.body?.activationCode !== lastCode) {
      lastCode = res.body.activationCode;
      log(`ACTIVATION CODE ${lastCode} (until ${new Date(res.body.activationCodeExpiresAt).toISOString()})`);
    }
    // The socket says `assigned` at once; polling only renews the code (and covers a player without a socket).
    for (let waited = 0; waited < 5000 && !claimed.value; waited += 250) await sleep(250);
  }
}

/**
 * The WebSocket (spec 4 §3): a single-use ticket, then hello, commands (acknowledged over the socket),
 * manifestChanged and assigned; heartbeat frames at the device's interval. Reconnects with back-off.
 */
function connectSocket(token, events) {
  let delay = 1000;
  let stopped = false;
  let socket;
  let beat;

  const open = async () => {
    const ticket = await call('POST', '/api/display/wsTicket', { token: await token() });
    if (ticket.status === 401) {
      await token(true);
      throw new Error('ticket refused: token renewed');
    }
    if (ticket.status !== 200) throw new Error(`ticket: ${ticket.status} ${JSON.stringify(ticket.body)}`);
    socket = new WebSocket(`${base.replace(/^http/, 'ws')}/api/display/ws?ticket=${encodeURIComponent(ticket.body.ticket)}`);
    socket.addEventListener('message', (event) => {
      const frame = JSON.parse(String(event.data));
      if (frame.type === 'hello') {
        delay = 1000;
        log(`connected (manifest ETag ${frame.manifestEtag}, heartbeat every ${frame.heartbeatSeconds}s)`);
        clearInterval(beat);
        beat = setInterval(() => {
          if (socket.readyState !== WebSocket.OPEN) return;
          socket.send(JSON.stringify({ type: 'heartbeat', version: 'sim-1.0', deviceInfo: { simulator: true, node: process.version } }));
          if (events.isAssigned()) void sendMetrics(token);
        }, frame.heartbeatSeconds * 1000);
      } else if (frame.type === 'command') {
        perform(frame.command, token).then(
          (ack) =>
            socket.readyState === WebSocket.OPEN && socket.send(JSON.stringify({ type: 'ack', commandId: frame.command.id, ...ack })),
        );
      } else if (frame.type === 'manifestChanged') {
        log(`manifest changed: ETag ${frame.etag}`);
      } else if (frame.type === 'assigned') {
        events.assigned();
      } else if (frame.type === 'error') {
        log(`server: ${frame.key} ${frame.message}`);
      }
    });
    socket.addEventListener('close', (event) => {
      clearInterval(beat);
      if (stopped) return;
      log(`connection closed (${event.code}${event.reason ? ` ${event.reason}` : ''}); reconnecting in ${delay / 1000}s`);
      if (event.code === 4001) events.revoked();
      retry();
    });
  };
  const retry = () => {
    setTimeout(() => open().catch((err) => (log(err.message), retry())), delay);
    delay = Math.min(delay * 2, 60_000);
  };
  open().catch((err) => (log(err.message), retry()));

  return () => {
    stopped = true;
    clearInterval(beat);
    socket?.close();
  };
}

/** The HTTP fallback (`--http`, or `--once`): heartbeats that collect commands, acknowledged by POST. */
async function heartbeatLoop(token) {
  let etag;
  for (;;) {
    const beat = await call('POST', '/api/display/heartbeat', {
      token: await token(),
      json: { version: 'sim-1.0', manifestEtag: etag, deviceInfo: { simulator: true, node: process.version } },
    });
    if (beat.status === 401) {
      log('heartbeat refused (token, device deleted or customer restricted); renewing the token');
      await token(true).catch((err) => {
        log(err.message);
        process.exit(1);
      });
      continue;
    }
    if (beat.status !== 200) {
      log(`heartbeat answered ${beat.status} ${JSON.stringify(beat.body)}`);
    } else {
      if (beat.body.manifestEtag !== etag) log(`manifest ETag ${beat.body.manifestEtag}`);
      etag = beat.body.manifestEtag;
      for (const command of beat.body.commands) {
        const ack = await call('POST', `/api/display/commands/${command.id}/ack`, {
          token: await token(),
          json: await perform(command, token),
        });
        log(`  acknowledged: ${ack.status}`);
      }
      await sendMetrics(token);
    }
    if (args.once) {
      clearInterval(rapidTimer);
      return;
    }
    await sleep((beat.body?.heartbeatSeconds ?? 60) * 1000);
  }
}

async function main() {
  let state = (await loadState()) ?? (await register());
  let token = tokenSource(state);
  try {
    await token();
  } catch (err) {
    if (err.status !== 401) throw err;
    log('saved credentials refused (device deleted?): registering again');
    state = await register();
    token = tokenSource(state);
  }
  if (args.http || args.once) {
    await waitForClaim(token, state, { value: false });
    await uploadScreenshot(await token());
    await heartbeatLoop(token);

    return;
  }
  const claimed = { value: false };
  connectSocket(token, {
    isAssigned: () => claimed.value,
    assigned: () => {
      claimed.value = true;
      log('claimed by a tenant');
    },
    revoked: () => {
      log('the server revoked this device (deleted, or its customer restricted)');
      process.exit(1);
    },
  });
  await waitForClaim(token, state, claimed);
  claimed.value = true;
  await uploadScreenshot(await token());
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
