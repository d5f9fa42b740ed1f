import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireDataDirLock, DataDirLockedError, type DataDirLock } from './data-dir-lock';

const MODULE = fileURLToPath(new URL('./data-dir-lock.ts', import.meta.url));

let dir: string;
let held: DataDirLock[] = [];
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'signage-lock-'));
});
afterEach(() => {
  for (const lock of held) lock.release();
  held = [];
  fs.rmSync(dir, { recursive: true, force: true });
});

const lockFile = () => path.join(dir, 'signage.lock');
const readLock = () => JSON.parse(fs.readFileSync(lockFile(), 'utf8')) as { host: string; pid: number; since: string };

function acquire(target = dir): DataDirLock {
  const lock = acquireDataDirLock(target);
  held.push(lock);

  return lock;
}

/** Tries to take the lock from another process; answers its exit code and output. */
function acquireInChild(target: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const script = `
    import(${JSON.stringify(MODULE)}).then((m) => {
      try { m.acquireDataDirLock(${JSON.stringify(target)}); console.log('ACQUIRED'); }
      catch (e) { console.log(e.name + ': ' + e.message); process.exitCode = e instanceof m.DataDirLockedError ? 3 : 4; }
    });`;

  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function deadPid(): number {
  // A process that has exited: its pid is free (reuse within the test is practically impossible).
  const child = spawnSync(process.execPath, ['-e', 'process.exit(0)']);

  return child.pid!;
}

describe('acquireDataDirLock', () => {
  it('creates the directory and a lock file naming this process', () => {
    const nested = path.join(dir, 'a', 'b');
    acquire(nested);
    const holder = JSON.parse(fs.readFileSync(path.join(nested, 'signage.lock'), 'utf8'));
    expect(holder).toMatchObject({ host: os.hostname(), pid: process.pid });
    expect(new Date(holder.since).getTime()).toBeLessThanOrEqual(Date.now());
  });

  it('makes a second process refuse with a clear message', async () => {
    acquire();
    const result = await acquireInChild(dir);
    expect(result.stderr).not.toMatch(/Cannot find|ERR_/);
    expect(result.code).toBe(3);
    expect(result.stdout).not.toContain('ACQUIRED');
    expect(result.stdout).toContain(path.resolve(dir));
    expect(result.stdout).toContain(`in use by process ${process.pid}`);
    expect(result.stdout).toContain('DATA_DIR');
    // The refused process did not disturb the holder's lock.
    expect(readLock().pid).toBe(process.pid);
  }, 30_000);

  it('lets another process acquire once the lock is released', async () => {
    const lock = acquire();
    lock.release();
    const result = await acquireInChild(dir);
    expect(result.stdout).toContain('ACQUIRED');
    expect(result.code).toBe(0);
    // The child released its lock on exit.
    expect(fs.existsSync(lockFile())).toBe(false);
  }, 30_000);

  it('refuses a second acquire in the same process', () => {
    acquire();
    expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
  });

  it('takes over a stale lock of a dead process on this host', () => {
    const pid = deadPid();
    fs.writeFileSync(lockFile(), JSON.stringify({ host: os.hostname(), pid, since: '2020-01-01T00:00:00.000Z' }));
    acquire();
    expect(readLock()).toMatchObject({ host: os.hostname(), pid: process.pid });
  });

  it('treats a lock from another host as held (a shared volume cannot be checked)', () => {
    fs.writeFileSync(lockFile(), JSON.stringify({ host: 'some-other-host', pid: 1, since: '2020-01-01T00:00:00.000Z' }));
    expect(() => acquireDataDirLock(dir)).toThrow(/in use by process 1 on some-other-host/);
    expect(readLock().host).toBe('some-other-host');
  });
});

describe('release', () => {
  it('removes the lock file and can be called twice', () => {
    const lock = acquire();
    expect(fs.existsSync(lockFile())).toBe(true);
    lock.release();
    expect(fs.existsSync(lockFile())).toBe(false);
    expect(() => lock.release()).not.toThrow();
  });

  it('does not remove a lock that now belongs to someone else', () => {
    const lock = acquire();
    const foreign = JSON.stringify({ host: 'other', pid: 42, since: new Date().toISOString() });
    fs.writeFileSync(lockFile(), foreign);
    lock.release();
    expect(fs.readFileSync(lockFile(), 'utf8')).toBe(foreign);
  });

  it('allows acquiring again after release', () => {
    acquire().release();
    acquire();
    expect(readLock().pid).toBe(process.pid);
  });
});
