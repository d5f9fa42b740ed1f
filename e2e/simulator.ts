import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The simulator as a child process: its output, and the activation code once it printed one. */
export function startSimulator(baseURL: string) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'signage-sim-'));
  const child: ChildProcess = spawn(process.execPath, ['scripts/display-sim.mjs', '--url', baseURL, '--state', path.join(dir, 'device.json')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));

  return {
    output: () => output,
    code: () => /ACTIVATION CODE (\d{4})/.exec(output)?.[1],
    stop: () => {
      child.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
