// Load generator of scripts/bench-datasources.mjs: simulated players, devices `from`..`to` of the seeded tenant
// (bench/datasources-server.ts), in a process of their own (pinned to the load generator core) so that the server's
// CPU is measured alone. Each device takes a ticket (POST /api/display/wsTicket with its access token `<tokenSeed>-<i>`),
// opens GET /api/display/ws?ticket=, waits for `hello` and heartbeats every `heartbeatMs` (random phase). Every
// `datasourceChanged` frame is counted with its arrival time (Date.now(): the script's clock, same machine); with
// `readOnChange` the device then reads the datasource again as a player does (GET /api/display/datasource/{id} with
// the ETag it holds) and the time the last read completed is kept. Driven over IPC:
//   {type:'connect', base, tokenSeed, from, to, localAddress, concurrency, heartbeatMs} → {type:'connected', …}
//   {type:'round', readOnChange} (counters zeroed) → {type:'round'}
//   {type:'stats'} → {type:'stats', …};  {type:'stop'} → closes every socket and exits.
import http from 'node:http';
import WebSocket from 'ws';

const devices = [];
let base = '';
let agent;
let readOnChange = false;
const counters = () => ({ frames: 0, told: 0, firstAt: null, lastAt: null, reads: 0, notModified: 0, readErrors: 0, lastReadAt: null });
let round = counters();
let roundId = 0;
const errors = [];
const note = (msg) => {
  if (errors.length < 5) errors.push(msg);
};

function call(method, path, token, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}${path}`,
      { method, agent, headers: { authorization: `Bearer ${token}`, 'content-length': 0, ...headers } },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function readAgain(device, id) {
  const r = round;
  try {
    const res = await call('GET', `/api/display/datasource/${id}`, device.token, device.etag ? { 'if-none-match': device.etag } : {});
    if (res.status === 200) device.etag = res.headers.etag;
    else if (res.status !== 304) throw new Error(`GET datasource answered ${res.status}: ${res.text.slice(0, 200)}`);
    if (r !== round) return;
    r.reads++;
    if (res.status === 304) r.notModified++;
    r.lastReadAt = Date.now();
  } catch (err) {
    r.readErrors++;
    note(`device ${device.i}: ${err.message}`);
  }
}

async function connectOne(msg, i) {
  const token = `${msg.tokenSeed}-${i}`;
  const ticket = await call('POST', '/api/display/wsTicket', token);
  if (ticket.status !== 200) throw new Error(`POST /api/display/wsTicket answered ${ticket.status}: ${ticket.text.slice(0, 200)}`);
  const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/api/display/ws?ticket=${encodeURIComponent(JSON.parse(ticket.text).ticket)}`, {
    perMessageDeflate: false,
    localAddress: msg.localAddress,
  });
  const device = {
    i,
    ws,
    token,
    etag: undefined,
    manifestEtag: undefined,
    toldIn: -1,
    timer: undefined,
    interval: undefined,
    closing: false,
  };
  await new Promise((resolve, reject) => {
    let helloed = false;
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString());
      if (frame.type === 'hello') {
        device.manifestEtag = frame.manifestEtag;
        helloed = true;
        resolve();
      } else if (frame.type === 'datasourceChanged') {
        const now = Date.now();
        round.frames++;
        if (device.toldIn !== roundId) round.told++;
        device.toldIn = roundId;
        round.firstAt ??= now;
        round.lastAt = now;
        if (readOnChange) void readAgain(device, frame.id);
      }
    });
    ws.on('error', (err) => {
      note(`device ${i}: ${err.message}`);
      if (!helloed) reject(err);
    });
    ws.on('close', (code) => {
      if (!device.closing) note(`device ${i} closed by the server (${code})`);
      clearTimeout(device.timer);
      clearInterval(device.interval);
      if (!helloed) reject(new Error(`closed before hello (${code})`));
    });
  });
  const beat = () => {
    if (ws.readyState === WebSocket.OPEN)
      ws.send(JSON.stringify({ type: 'heartbeat', manifestEtag: device.manifestEtag, version: 'bench-1.0', localIpAddress: '10.0.0.1' }));
  };
  device.timer = setTimeout(() => {
    beat();
    device.interval = setInterval(beat, msg.heartbeatMs);
  }, Math.random() * msg.heartbeatMs);
  devices.push(device);
}

async function connectAll(msg) {
  base = msg.base;
  agent = new http.Agent({ keepAlive: true, maxSockets: msg.concurrency, localAddress: msg.localAddress });
  let next = msg.from;
  let failed = 0;
  const worker = async () => {
    while (next <= msg.to) {
      const i = next++;
      // A ticket lives 30 s: one that expired in a queue is replaced (three tries).
      for (let attempt = 1; attempt <= 3; attempt++) {
        try {
          await connectOne(msg, i);
          break;
        } catch (err) {
          note(`device ${i}, try ${attempt}: ${err.message}`);
          if (attempt === 3) failed++;
        }
      }
    }
  };
  await Promise.all(Array.from({ length: msg.concurrency }, worker));
  return { type: 'connected', count: devices.length, failed, errors: errors.splice(0) };
}

process.on('message', (msg) => {
  if (msg.type === 'connect') {
    connectAll(msg).then(
      (r) => process.send(r),
      (err) => process.send({ type: 'connected', count: devices.length, failed: -1, error: err.message }),
    );
  } else if (msg.type === 'round') {
    roundId++;
    round = counters();
    readOnChange = Boolean(msg.readOnChange);
    process.send({ type: 'round' });
  } else if (msg.type === 'stats') {
    const open = devices.filter((d) => d.ws.readyState === WebSocket.OPEN).length;
    process.send({ type: 'stats', ...round, open, errorsSeen: errors.splice(0), rssMiB: process.memoryUsage().rss / 2 ** 20 });
  } else if (msg.type === 'stop') {
    for (const d of devices) {
      d.closing = true;
      d.ws.terminate();
    }
    process.exit(0);
  }
});
process.on('disconnect', () => process.exit(0));
