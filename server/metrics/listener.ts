import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { Metrics } from './metrics';

export type MetricsListener = { port: number; close: () => Promise<void> };

/**
 * `METRICS_PORT`: a listener of its own that serves GET /metrics without a token and nothing else (404), for a
 * network only the scraper reaches. Not the API's app: no request there is counted, authenticated or logged.
 */
export async function startMetricsListener(input: { metrics: Metrics; host: string; port: number; log: Logger }): Promise<MetricsListener> {
  const { metrics, log } = input;
  const server = http.createServer((req, res) => void answerMetrics({ metrics, log, req, res }));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(input.port, input.host, () => {
      server.off('error', reject);
      resolve();
    });
  });

  return {
    // Listening on a TCP port (not a pipe): the address is an AddressInfo.
    port: (server.address() as AddressInfo).port,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function answerMetrics(input: { metrics: Metrics; log: Logger; req: http.IncomingMessage; res: http.ServerResponse }) {
  const { metrics, req, res } = input;
  const path = (req.url ?? '/').split('?', 1)[0];
  if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found: this port serves GET /metrics only\n');

    return;
  }
  try {
    const body = await metrics.exposition();
    res.writeHead(200, { 'Content-Type': metrics.contentType }).end(req.method === 'HEAD' ? undefined : body);
  } catch (err) {
    input.log.error({ err }, 'metrics exposition failed');
    res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end('The metrics could not be collected\n');
  }
}
