/**
 * Baseline server for the benchmarks: bare `node:http`, no framework, no database.
 * - GET /healthz and /readyz answer the same JSON body as the Hono app (`{"status":"ok"}`).
 * - GET /api/v2/user/me answers a constant JSON: the body the Hono app returned for the
 *   benchmark administrator (passed in BENCH_ME_BODY), without checking the token.
 * Anything else is a 404. Started by scripts/bench.mjs with PORT and HOST.
 */
import http from 'node:http';

const port = Number(process.env.PORT ?? 0);
const host = process.env.HOST ?? '127.0.0.1';
const health = Buffer.from(JSON.stringify({ status: 'ok' }));
const me = Buffer.from(
  process.env.BENCH_ME_BODY ?? JSON.stringify({ id: '00000000-0000-7000-8000-000000000000', email: 'bench@example.com' }),
);

function send(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': body.length });
  res.end(body);
}

const server = http.createServer((req, res) => {
  const path = (req.url ?? '/').split('?', 1)[0];
  if (req.method === 'GET' && (path === '/healthz' || path === '/readyz')) return send(res, 200, health);
  if (req.method === 'GET' && path === '/api/v2/user/me') return send(res, 200, me);
  send(res, 404, Buffer.from('{"status":404}'));
});
server.keepAliveTimeout = 65_000;
server.listen(port, host, () => process.stdout.write(`${JSON.stringify({ benchServer: 'bare', port: server.address().port })}\n`));

const stop = () => {
  server.close();
  server.closeAllConnections();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
