import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { corpus } from './tz-corpus.test-kit';

/*
 * Resolution never depends on the process time zone: the same corpus run in child processes under TZ=UTC,
 * America/Chicago and Asia/Kathmandu answers byte-identical JSON, equal to this process's answer.
 */

const MODULE = fileURLToPath(new URL('./tz-corpus.test-kit.ts', import.meta.url));
const ROOT = path.resolve(path.dirname(MODULE), '../..');

function runUnder(tz: string): Promise<{ offset: number; json: string }> {
  const script = `import(${JSON.stringify(MODULE)}).then((m) => { process.stdout.write(JSON.stringify({ offset: new Date(Date.UTC(2026, 0, 1)).getTimezoneOffset() }) + '\\n' + JSON.stringify(m.corpus())); });`;

  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '-e', script], {
      cwd: ROOT,
      env: { ...process.env, TZ: tz },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`TZ=${tz} exited ${code}: ${stderr}`));
      const newline = stdout.indexOf('\n');
      resolve({ offset: JSON.parse(stdout.slice(0, newline)).offset, json: stdout.slice(newline + 1) });
    });
  });
}

describe('independence of the process time zone', () => {
  it('answers the same segments and explanations under TZ=UTC, America/Chicago and Asia/Kathmandu', { timeout: 120_000 }, async () => {
    const zones = ['UTC', 'America/Chicago', 'Asia/Kathmandu'];
    const runs = await Promise.all(zones.map(runUnder));
    // the children really ran in those zones: their local offset on 2026-01-01 (minutes behind UTC)
    expect(runs.map((r) => r.offset)).toEqual([0, 360, -345]);
    const here = JSON.stringify(corpus());
    for (const run of runs) expect(run.json).toBe(here);
  });
});
