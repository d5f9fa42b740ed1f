import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * An exclusive lock on a PGlite data directory. PGlite itself does not lock, and two
 * processes on one directory corrupt it, so a second process must refuse to start.
 * The lock file holds host and pid; a lock left by a dead process on this host is taken over.
 */
export type DataDirLock = { release: () => void };

export class DataDirLockedError extends Error {}

export function acquireDataDirLock(dir: string): DataDirLock {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'signage.lock');
  const owner = JSON.stringify({ host: os.hostname(), pid: process.pid, since: new Date().toISOString() });

  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, owner, { flag: 'wx' });
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        try {
          if (fs.readFileSync(file, 'utf8') === owner) fs.unlinkSync(file);
        } catch {
          // already gone
        }
      };
      process.once('exit', release);

      return { release };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = readHolder(file);
      if (holder && isAlive(holder)) {
        throw new DataDirLockedError(
          `The data directory ${path.resolve(dir)} is in use by process ${holder.pid} on ${holder.host} (since ${holder.since}). ` +
            'Only one process may open an embedded database directory; stop the other process or set DATA_DIR to another directory.',
        );
      }
      // Stale lock of a dead process: remove it and try once more (a concurrent starter may win; then we refuse).
      fs.rmSync(file, { force: true });
    }
  }
  throw new DataDirLockedError(`Could not lock the data directory ${path.resolve(dir)}: another process took it while starting.`);
}

type Holder = { host: string; pid: number; since: string };

function readHolder(file: string): Holder | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Holder;
  } catch {
    return undefined;
  }
}

function isAlive(holder: Holder): boolean {
  // A lock from another host (shared volume) cannot be checked: treat it as held.
  if (holder.host !== os.hostname()) return true;
  if (holder.pid === process.pid) return true;
  try {
    process.kill(holder.pid, 0);

    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
