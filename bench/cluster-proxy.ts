/**
 * A second test proxy (server/test/cluster/test-proxy.ts) in front of the same instances, for scripts/bench-cluster.mjs:
 * one process may hold 20 000 open files on this machine, and a proxy holds two sockets a screen, so 10 000 screens
 * go through two proxy processes of 5 000 each (as nginx spreads its connections over worker processes).
 * BENCH_PROXY_BACKENDS is `name=url,name=url`; prints `{"proxy": url}` once listening, closes on SIGTERM.
 * Run as `node --import tsx bench/cluster-proxy.ts`.
 */
import { startTestProxy } from '@/server/test/cluster/test-proxy';

async function main() {
  const backends = (process.env.BENCH_PROXY_BACKENDS ?? '')
    .split(',')
    .filter(Boolean)
    .map((entry) => {
      const [name, url] = entry.split('=');
      if (!name || !url) throw new Error(`BENCH_PROXY_BACKENDS: "${entry}" is not name=url`);

      return { name, url };
    });
  if (backends.length === 0) throw new Error('BENCH_PROXY_BACKENDS is required');
  const proxy = await startTestProxy(backends);
  process.on('SIGTERM', () => void proxy.close().finally(() => process.exit(0)));
  process.stdout.write(`${JSON.stringify({ proxy: proxy.url })}\n`);
}

main().catch((err) => {
  process.stderr.write(`bench cluster proxy failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
