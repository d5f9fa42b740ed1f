import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PayloadTooLargeError, ValidationError } from '@/server/errors';
import type { BlobStore, ByteRange, MultipartPart, PutOptions, StoredBlob, StoredPart } from './blob-store';
import { MeasuringStream } from './crc32';
import { isSafeKey } from './keys';

/**
 * Blobs as files under `root` (DATA_DIR/storage). Every write goes to a temporary file in the same
 * file system and is renamed into place, so a blob is either complete or absent. Multipart uploads
 * keep one file per part under `.multipart/<uploadId>/` and are concatenated on complete.
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
  const uploadDir = (uploadId: string) => {
    if (!/^[0-9a-f-]{36}$/.test(uploadId)) throw new ValidationError('upload.error.invalidId', 'Unknown upload id');
    return path.join(multipartDir, uploadId);
  };
  const partFile = (uploadId: string, partNumber: number) => path.join(uploadDir(uploadId), String(partNumber));

  /**
   * Streams into a temporary file, then renames it to `target`; the temporary file never survives a failure.
   * `accept` runs before the rename: refusing leaves whatever `target` held before untouched. The pipeline
   * starts before any await, so a body that fails early (a client hanging up) is always listened to.
   */
  async function writeAtomically(target: string, body: Readable, measure: MeasuringStream, accept?: () => void): Promise<void> {
    const tmp = path.join(tmpDir, randomUUID());
    try {
      await pipeline(body, measure, createWriteStream(tmp, { flags: 'wx' }));
      accept?.();
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.rename(tmp, target);
    } catch (error) {
      await fs.rm(tmp, { force: true });
      throw error;
    }
  }

  const tooLarge = (max: number) => () => new PayloadTooLargeError(`The body is larger than ${max} bytes`, 'upload.error.tooLarge', { maxBytes: max });

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

    async ping() {
      await fs.mkdir(tmpDir, { recursive: true });
      await fs.access(tmpDir, fs.constants.W_OK);
    },

    multipart: {
      async create() {
        const uploadId = randomUUID();
        await fs.mkdir(uploadDir(uploadId), { recursive: true });

        return uploadId;
      },

      async putPart(_key, uploadId, part, body): Promise<StoredPart> {
        const dir = uploadDir(uploadId);
        // Synchronous on purpose: no await may come before the body's pipeline (see writeAtomically).
        if (!existsSync(dir)) throw new ValidationError('upload.error.unknownUpload', 'The upload does not exist any more');
        const measure = new MeasuringStream(part.expectedSize, tooLarge(part.expectedSize));
        // A short part is refused before it replaces anything: an earlier good copy of the part stays.
        await writeAtomically(partFile(uploadId, part.partNumber), body, measure, () => {
          if (measure.size === part.expectedSize) return;
          throw new ValidationError('upload.error.wrongPartSize', `Part ${part.partNumber} must be ${part.expectedSize} bytes, got ${measure.size}`, {
            partNumber: part.partNumber,
            expectedSize: part.expectedSize,
            receivedSize: measure.size,
          });
        });

        return { size: measure.size, crc32: measure.crc32, etag: `"${measure.crc32}-${measure.size}"` };
      },

      async presignPart() {
        return undefined;
      },

      async listParts(_key, uploadId): Promise<MultipartPart[]> {
        let names: string[];
        try {
          names = await fs.readdir(uploadDir(uploadId));
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
          throw error;
        }
        const parts = await Promise.all(
          names
            .filter((n) => /^\d+$/.test(n))
            .map(async (n) => ({ partNumber: Number(n), size: (await fs.stat(path.join(uploadDir(uploadId), n))).size, etag: '' })),
        );

        return parts.sort((a, b) => a.partNumber - b.partNumber);
      },

      async complete(key, uploadId, parts) {
        const files = parts.map((p) => partFile(uploadId, p.partNumber));
        const target = fileOf(key);
        await fs.mkdir(tmpDir, { recursive: true });
        const tmp = path.join(tmpDir, randomUUID());
        try {
          const out = createWriteStream(tmp, { flags: 'wx' });
          for (const file of files) await pipeline(createReadStream(file), out, { end: false });
          await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
          await fs.mkdir(path.dirname(target), { recursive: true });
          await fs.rename(tmp, target);
        } catch (error) {
          await fs.rm(tmp, { force: true });
          throw error;
        }
        await fs.rm(uploadDir(uploadId), { recursive: true, force: true });
      },

      async abort(_key, uploadId) {
        await fs.rm(uploadDir(uploadId), { recursive: true, force: true });
      },
    },
  };
}
