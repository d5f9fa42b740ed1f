import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PayloadTooLargeError } from '@/server/errors';
import type { BlobStore, ByteRange, PutOptions, StoredBlob } from './blob-store';
import { MeasuringStream } from './crc32';
import { isSafeKey } from './keys';
import { createLocalMultipart } from './local-multipart';

/**
 * Blobs as files under `root` (DATA_DIR/storage). Every write goes to a temporary file in the same
 * file system and is renamed into place, so a blob is either complete or absent. Multipart uploads
 * live under `.multipart/` (local-multipart.ts).
 */
export function createLocalStore(root: string): BlobStore {
  const tmpDir = path.join(root, '.tmp');
  const multipartDir = path.join(root, '.multipart');
  // Created once here, so writes can start their pipeline without an await in front of it.
  mkdirSync(tmpDir, { recursive: true });

  const fileOf = (key: string) => {
    if (!isSafeKey(key)) throw new Error(`unsafe blob key ${key}`);
    return path.join(root, ...key.split('/'));
  };
  /**
   * Streams into a temporary file, then renames it to `target`; the temporary file never survives a failure.
   * `accept` runs before the rename: refusing leaves whatever `target` held before untouched. The pipeline
   * starts before any await, so a body that fails early (a client hanging up) is always listened to.
   */
  async function writeAtomically(target: string, body: Readable, measure: MeasuringStream, accept?: () => void): Promise<void> {
    const tmp = path.join(tmpDir, randomUUID());
    const out = createWriteStream(tmp, { flags: 'wx' });
    try {
      await pipeline(body, measure, out);
      accept?.();
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.rename(tmp, target);
    } catch (error) {
      // Removed once the stream (destroyed by the pipeline) has let go of it: a stream still opening would create
      // the file again after the removal (a temporary file was once found left after a failed put on a loaded machine).
      if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
      await fs.rm(tmp, { force: true });
      throw error;
    }
  }

  const tooLarge = (max: number) => () =>
    new PayloadTooLargeError(`The body is larger than ${max} bytes`, 'upload.error.tooLarge', { maxBytes: max });

  return {
    kind: 'local',

    async put(key: string, body: Readable, options: PutOptions = {}): Promise<StoredBlob> {
      const max = options.maxBytes ?? Number.POSITIVE_INFINITY;
      const measure = new MeasuringStream(max, tooLarge(max));
      await writeAtomically(fileOf(key), body, measure);

      return { size: measure.size, crc32: measure.crc32 };
    },

    async read(key: string, range?: ByteRange): Promise<Readable | undefined> {
      const file = fileOf(key);
      try {
        const handle = await fs.open(file, 'r');
        // The stream owns the handle from here (closes it at end or on destroy).
        return createReadStream('', { fd: handle, start: range?.start, end: range?.end, autoClose: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },

    async stat(key: string) {
      try {
        const s = await fs.stat(fileOf(key));

        return { size: s.size, lastModified: s.mtime };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },

    async delete(key: string) {
      await fs.rm(fileOf(key), { force: true });
    },

    async sweepAbandoned(olderThanMs) {
      const before = Date.now() - olderThanMs;
      let removed = 0;
      for (const dir of [tmpDir, multipartDir]) {
        let names: string[];
        try {
          names = await fs.readdir(dir);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
          throw error;
        }
        for (const name of names) {
          const entry = path.join(dir, name);
          const stat = await fs.stat(entry).catch(() => undefined);
          if (!stat || stat.mtimeMs >= before) continue;
          await fs.rm(entry, { recursive: true, force: true });
          removed++;
        }
      }

      return removed;
    },

    // A root that is gone (an unmounted volume) is not created again here: that would serve an empty store.
    async ping() {
      if (!(await fs.stat(root)).isDirectory()) throw new Error(`${root} is not a directory`);
      await fs.mkdir(tmpDir, { recursive: true });
      const probe = path.join(tmpDir, `ping-${randomUUID()}`);
      try {
        await fs.writeFile(probe, 'ping', { flag: 'wx' });
        if ((await fs.readFile(probe, 'utf8')) !== 'ping') throw new Error(`${tmpDir} does not read back what was written`);
      } finally {
        await fs.rm(probe, { force: true });
      }
    },

    multipart: createLocalMultipart({ multipartDir, fileOf }),
  };
}
