/**
 * The cluster of scripts/bench-cluster.mjs, driven over IPC: the cluster test's launcher
 * (server/test/cluster/launcher.ts: a fresh PostgreSQL database, the S3 protocol server, N production server
 * processes on the build, the test proxy in front), then `BENCH_SEED_DEVICES` devices seeded into it with the tokens
 * `<BENCH_TOKEN_SEED>-<i>` (bench/server-lib.ts `seedDevices`, the set-based SQL of the other device benchmarks).
 *
 * Sends `{type:'ready', url, databaseUrl, instances:[{name,url,pid}], admin, customerId, seed, proxyPid}` once up;
 * answers `{type:'kill', name}` with `{type:'killed', exit}` (SIGKILL), `{type:'proxy'}` with the proxy's counters,
 * and `{type:'stop'}` by stopping everything (database dropped) and exiting.
 * Run as `node --import tsx bench/cluster-server.ts` with BENCH_CLUSTER_SERVER_URL (a PostgreSQL server URL).
 */
import { openDatabase } from '@/server/db/client';
import { startCluster, type Cluster } from '@/server/test/cluster/launcher';
import { benchTenant, seedDevices } from './server-lib';

type Message = { type: 'kill'; name: string } | { type: 'proxy' } | { type: 'stop' };

const send = (message: Record<string, unknown>) => process.send?.(message);

async function main() {
  const serverUrl = process.env.BENCH_CLUSTER_SERVER_URL;
  if (!serverUrl) throw new Error('BENCH_CLUSTER_SERVER_URL is required');
  const cluster: Cluster = await startCluster({
    serverUrl,
    instances: Number(process.env.BENCH_CLUSTER_INSTANCES ?? 2),
    databasePrefix: 'bench_cluster',
    readyTimeoutMs: 300_000,
    env: {
      // The product's pace (the cluster test beats every 10 s to see offline screens sooner).
      DEVICE_HEARTBEAT_SECONDS: '60',
      LOG_LEVEL: 'warn',
      METRICS_TOKEN: process.env.BENCH_METRICS_TOKEN ?? '',
    },
  });
  const stop = async () => {
    await cluster.stop().catch((err: unknown) => process.stderr.write(`cluster stop failed: ${String(err)}\n`));
    process.exit(0);
  };
  process.on('disconnect', () => void stop());
  process.on('SIGTERM', () => void stop());

  const handle = await openDatabase({ kind: 'pg', url: cluster.databaseUrl, poolSize: 2 });
  let customerId: number;
  let seed: Awaited<ReturnType<typeof seedDevices>>;
  try {
    customerId = await benchTenant(handle, 'Bench Cluster');
    seed = await seedDevices(handle, customerId, {
      devices: Number(process.env.BENCH_SEED_DEVICES ?? 0),
      tokenSeed: process.env.BENCH_TOKEN_SEED ?? '',
    });
  } finally {
    await handle.close();
  }

  process.on('message', (message: Message) => {
    if (message.type === 'kill') {
      void cluster.kill(message.name).then((exit) => send({ type: 'killed', exit }));
    } else if (message.type === 'proxy') {
      send({ type: 'proxy', forwarded: Object.fromEntries(cluster.proxy.forwarded), tunnels: cluster.proxy.tunnels.size });
    } else if (message.type === 'stop') {
      void stop();
    }
  });
  send({
    type: 'ready',
    url: cluster.url,
    databaseUrl: cluster.databaseUrl,
    instances: cluster.instances.map((instance) => ({ name: instance.name, url: instance.url, pid: instance.pid })),
    admin: cluster.admin,
    customerId,
    seed,
    proxyPid: process.pid,
  });
}

main().catch((err) => {
  process.stderr.write(`bench cluster server failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
