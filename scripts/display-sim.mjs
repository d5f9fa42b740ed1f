#!/usr/bin/env node
// A tiny player simulator for the player API (spec 4 §1–§3): registers (or reuses a saved device), shows
// the activation code, waits until a tenant claims it, then sends heartbeats and acknowledges commands.
//
//   node scripts/display-sim.mjs [--url http://localhost:3000] [--state ./data/sim-device.json]
//                                [--serial SN-1] [--type SCREEN] [--platform BROWSER] [--once]
//
// The state file keeps deviceId and deviceSecret (mode 0600), so a restarted simulator is the same device.
// The secret is never printed.
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    url: { type: 'string', default: process.env.SIGNAGE_URL ?? 'http://localhost:3000' },
    state: { type: 'string', default: './data/sim-device.json' },
    serial: { type: 'string' },
    type: { type: 'string', default: 'SCREEN' },
    platform: { type: 'string', default: 'BROWSER' },
    once: { type: 'boolean', default: false, description: 'one heartbeat after the claim, then exit' },
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
      json: { type: args.type, platform: args.platform, version: 'sim-1.0', ...(args.serial ? { serial: args.serial } : {}), timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone },
    });
    if (res.status === 201) {
      const state = { deviceId: res.body.deviceId, deviceSecret: res.body.deviceSecret };
      await saveState(state);
      log(`registered device ${state.deviceId}`);
      if (res.body.activationCode) log(`ACTIVATION CODE ${res.body.activationCode} (until ${new Date(res.body.activationCodeExpiresAt).toISOString()})`);
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
    const res = await call('POST', '/oauth/token', { headers: { authorization: `Basic ${basic}` }, form: { grant_type: 'client_credentials' } });
    if (res.status !== 200) throw Object.assign(new Error(`token: ${res.status} ${JSON.stringify(res.body)}`), { status: res.status });
    token = res.body.access_token;
    renewAt = Date.now() + (res.body.expires_in - 60) * 1000;

    return token;
  };
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

  let lastCode = state.shownCode;
  for (;;) {
    const res = await call('GET', '/api/display/status', { token: await token() });
    if (res.status === 401) {
      await token(true);
      continue;
    }
    if (res.body?.assigned) {
      log(`assigned to customer ${res.body.customerId} as '${res.body.name}' (${res.body.timeZone ?? 'no time zone'})`);
      break;
    }
    if (res.body?.activationCode !== lastCode) {
      lastCode = res.body.activationCode;
      log(`ACTIVATION CODE ${lastCode} (until ${new Date(res.body.activationCodeExpiresAt).toISOString()})`);
    }
    await sleep(5000);
  }

  let etag;
  for (;;) {
    const beat = await call('POST', '/api/display/heartbeat', { token: await token(), json: { version: 'sim-1.0', manifestEtag: etag, deviceInfo: { simulator: true, node: process.version } } });
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
        log(`command ${command.name} ${JSON.stringify(command.params)}`);
        const ack = await call('POST', `/api/display/commands/${command.id}/ack`, { token: await token(), json: { ok: true, result: { simulated: true } } });
        log(`  acknowledged: ${ack.status}`);
      }
    }
    if (args.once) return;
    await sleep((beat.body?.heartbeatSeconds ?? 60) * 1000);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
