import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The simulator as a child process: its output, and the activation code once it printed one. `dir` keeps its
 * state (device id and secret) for a later simulator of the same device (the caller removes it); a fresh
 * temporary one otherwise, removed on `stop`.
 */
export function startSimulator(baseURL: string, dir?: string) {
  const stateDir = dir ?? mkdtempSync(path.join(os.tmpdir(), 'signage-sim-'));
  const child: ChildProcess = spawn(
    process.execPath,
    ['scripts/display-sim.mjs', '--url', baseURL, '--state', path.join(stateDir, 'device.json')],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));

  return {
    output: () => output,
    code: () => /ACTIVATION CODE (\d{4})/.exec(output)?.[1],
    stop: () => {
      child.kill();
      if (!dir) rmSync(stateDir, { recursive: true, force: true });
    },
    /** Resolves once the process has exited (after `stop`: its connections are gone). */
    exited: () =>
      child.exitCode !== null || child.signalCode !== null
        ? Promise.resolve()
        : new Promise<void>((resolve) => child.once('exit', () => resolve())),
  };
}
