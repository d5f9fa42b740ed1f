// Load generator of scripts/bench-devices.mjs and scripts/bench-channels.mjs: simulated players, devices
// `from`..`to` of the seeded tenant (bench/devices-server.ts, bench/channels-server.ts), in a process of their own so that the server's CPU is measured alone. Each
// device takes a ticket (POST /api/display/wsTicket with its access token `<tokenSeed>-<i>`), opens
// GET /api/display/ws?ticket=, heartbeats every `heartbeatMs` (a random phase each) and answers every
// `command` frame with an `ack` frame, as a player does (spec 4 §3); `command` frames are also counted by command
// name with the arrival times of the first and the last (`byName`, e.g. the `emergency` of a webhook action);
// `manifestChanged` frames are counted (frames, devices told) with the arrival times of the first and the last.
// Driven over IPC by the script:
//   {type:'connect', base, tokenSeed, from, to, localAddress, concurrency, heartbeatMs} → {type:'connected', …}
//   {type:'pace', heartbeatMs} (every device re-phased at random within the new interval) → {type:'paced'}
//   {type:'stats', reset?} → {type:'stats', …}; {type:'close', count} → {type:'closed', devices}
//   {type:'stop'} → closes every socket and exits.
// With `reconnect: true` in `connect`, a device whose socket the server closes (or loses) connects again as the web
// player does (player/connection.ts): a new ticket and socket after a back-off with equal jitter (1 s doubling to
// 60 s), or soon (0.25–3 s, jittered) when the close code says the server restarts (1012) or goes away (1001);
// `stats` then reports `reconnects` and when the last one came (`lastReconnectAt`).
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';

const devices = []; // { i, ws, timer, interval }
let agent;
const counters = () => ({
  heartbeats: 0,
  commands: 0,
  acks: 0,
  firstCommandAt: null,
  lastCommandAt: null,
  errors: 0,
  errorFrames: 0,
  closes: 0,
  manifestChanged: 0,
  manifestDevices: 0,
  firstManifestAt: null,
  lastManifestAt: null,
  byName: {},
  reconnects: 0,
  lastReconnectAt: null,
});
let stats = counters();
const lastErrors = [];
const note = (msg) => {
  if (lastErrors.length < 5) lastErrors.push(msg);
};

function post(base, path, token) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}${path}`,
      { method: 'POST', agent, headers: { authorization: `Bearer ${token}`, 'content-length': 0 } },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if (res.statusCode !== 200) return reject(new Error(`POST ${path} answered ${res.statusCode}: ${text.slice(0, 200)}`));
          resolve(JSON.parse(text));
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

function schedule(device, heartbeatMs) {
  clearTimeout(device.timer);
  clearInterval(device.interval);
  const beat = () => {
    if (device.ws.readyState !== WebSocket.OPEN) return;
    device.ws.send(JSON.stringify({ type: 'heartbeat', manifestEtag: device.etag, version: 'bench-1.0', localIpAddress: '10.0.0.1' }));
    stats.heartbeats++;
  };
  device.timer = setTimeout(() => {
    beat();
    device.interval = setInterval(beat, heartbeatMs);
  }, Math.random() * heartbeatMs);
}

/** The player's reconnect delay (player/backoff.ts): base × 2^attempt capped, then between half and all of it. */
function reconnectDelay(device, code) {
  if (code === 1012 || code === 1001) return 250 + Math.random() * 2_750;
  const ceiling = Math.min(60_000, 1_000 * 2 ** Math.min(device.attempt++, 30));

  return ceiling / 2 + (Math.random() * ceiling) / 2;
}

function reconnectLater(msg, device, code) {
  setTimeout(
    async () => {
      if (device.closing) return;
      try {
        await connectOne(msg, device.i, device);
        device.attempt = 0;
        stats.reconnects++;
        stats.lastReconnectAt = Date.now();
      } catch (err) {
        note(`device ${device.i}, reconnect: ${err.message}`);
        reconnectLater(msg, device, 0);
      }
    },
    reconnectDelay(device, code),
  );
}

async function connectOne(msg, i, existing) {
  const token = `${msg.tokenSeed}-${i}`;
  const { ticket } = await post(msg.base, '/api/display/wsTicket', token);
  const ws = new WebSocket(`${msg.base.replace(/^http/, 'ws')}/api/display/ws?ticket=${encodeURIComponent(ticket)}`, {
    perMessageDeflate: false,
    localAddress: msg.localAddress,
  });
  const device = existing ?? { i, ws, timer: undefined, interval: undefined, etag: undefined, attempt: 0 };
  device.ws = ws;
  await new Promise((resolve, reject) => {
    let helloed = false;
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString());
      if (frame.type === 'hello') {
        device.etag = frame.manifestEtag;
        helloed = true;
        resolve();
      } else if (frame.type === 'command') {
        const now = Date.now();
        stats.commands++;
        stats.firstCommandAt ??= now;
        stats.lastCommandAt = now;
        const named = (stats.byName[frame.command.name] ??= { count: 0, firstAt: now, lastAt: now });
        named.count++;
        named.lastAt = now;
        ws.send(JSON.stringify({ type: 'ack', commandId: frame.command.id, ok: true }));
        stats.acks++;
      } else if (frame.type === 'manifestChanged') {
        const now = Date.now();
        device.etag = frame.etag;
        stats.manifestChanged++;
        // Devices told since the last reset (each counted once), and when the first and the last were.
        if (device.toldAt !== stats) stats.manifestDevices++;
        device.toldAt = stats;
        stats.firstManifestAt ??= now;
        stats.lastManifestAt = now;
      } else if (frame.type === 'error') {
        stats.errorFrames++;
        note(`error frame: ${frame.key} ${frame.message}`);
      }
    });
    ws.on('error', (err) => {
      stats.errors++;
      note(`device ${i}: ${err.message}`);
      if (!helloed) reject(err);
    });
    ws.on('close', (code) => {
      if (!device.closing) {
        stats.closes++;
        note(`device ${i} closed by the server (${code})`);
      }
      clearTimeout(device.timer);
      clearInterval(device.interval);
      if (!helloed) reject(new Error(`closed before hello (${code})`));
      else if (msg.reconnect && !device.closing && device.ws === ws) reconnectLater(msg, device, code);
    });
  });
  schedule(device, msg.heartbeatMs);
  if (!existing) devices.push(device);
}

async function connectAll(msg) {
  agent = new http.Agent({ keepAlive: true, maxSockets: msg.concurrency, localAddress: msg.localAddress });
  const t0 = performance.now();
  let next = msg.from;
  let failed = 0;
  let retries = 0;
  // A server that cannot keep up with the devices already connected stops the connecting at the deadline.
  const deadline = Date.now() + (msg.deadlineMs ?? Infinity);
  let late = 0;
  const worker = async () => {
    while (next <= msg.to) {
      if (Date.now() > deadline) {
        late = msg.to - next + 1;
        next = msg.to + 1;
        break;
      }
      const i = next++;
      // A ticket lives 30 s: one that expired in a queue is replaced (three tries).
      for (let attempt = 1; attempt <= 3; attempt++) {
        try {
          await connectOne(msg, i);
          break;
        } catch (err) {
          note(`device ${i}, try ${attempt}: ${err.message}`);
          if (attempt === 3) failed++;
          else retries++;
        }
      }
    }
  };
  await Promise.all(Array.from({ length: msg.concurrency }, worker));
  // Reconnecting devices still ask for tickets.
  if (!msg.reconnect) agent.destroy();
  return { type: 'connected', count: devices.length, failed, retries, late, ms: performance.now() - t0, errors: lastErrors.splice(0) };
}

process.on('message', (msg) => {
  if (msg.type === 'connect') {
    connectAll(msg).then(
      (r) => process.send(r),
      (err) => process.send({ type: 'connected', count: devices.length, failed: -1, error: err.message }),
    );
  } else if (msg.type === 'pace') {
    for (const d of devices) schedule(d, msg.heartbeatMs);
    process.send({ type: 'paced' });
  } else if (msg.type === 'stats') {
    const open = devices.filter((d) => d.ws.readyState === WebSocket.OPEN).length;
    process.send({ type: 'stats', ...stats, open, errorsSeen: lastErrors.splice(0), rssMiB: process.memoryUsage().rss / 2 ** 20 });
    if (msg.reset) stats = counters();
  } else if (msg.type === 'close') {
    const gone = devices.splice(0, msg.count);
    for (const d of gone) {
      d.closing = true;
      clearTimeout(d.timer);
      clearInterval(d.interval);
      d.ws.close(1000, 'bench: going silent');
    }
    process.send({ type: 'closed', devices: gone.map((d) => d.i) });
  } else if (msg.type === 'stop') {
    for (const d of devices) {
      d.closing = true;
      d.ws.terminate();
    }
    process.exit(0);
  }
});
process.on('disconnect', () => process.exit(0));
