#!/usr/bin/env node
// `npm run test:cluster`: the production build (built when missing), then the cluster suite (Vitest project `cluster`,
// server/test/cluster/): two server processes on a fresh database of DATABASE_URL's PostgreSQL server, behind the test
// proxy. Extra arguments go to Vitest (a file, `-t name`).
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureProductionBuild } from './production-build.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

if (!process.env.DATABASE_URL) {
  console.error('[cluster] DATABASE_URL must name a PostgreSQL server (a fresh database is created there and dropped after)');
  process.exit(2);
}
const built = await ensureProductionBuild('cluster');
if (built !== 0) process.exit(built);
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const child = spawn(npx, ['vitest', 'run', '--project', 'cluster', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
