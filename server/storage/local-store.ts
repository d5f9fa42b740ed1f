import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, rmSync } from 'node:fs';
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
 * file system and is renamed into place, so a blob is either complete or absent. A multipart upload
 * is one data file under `.multipart/<uploadId>/` that each part writes at its offset, plus a marker per
 * received part; complete renames the data file into place.
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
  /** Marker of a received part (its size as text); the bytes are in the upload's data file. */
  const partFile = (uploadId: string, partNumber: number) => path.join(uploadDir(uploadId), String(partNumber));
  const dataFile = (uploadId: string) => path.join(uploadDir(uploadId), 'data');

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

  async function receivedParts(uploadId: string): Promise<MultipartPart[]> {
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
        .map(async (n) => ({ partNumber: Number(n), size: Number(await fs.readFile(partFile(uploadId, Number(n)), 'utf8')), etag: '' })),
    );

    return parts.sort((a, b) => a.partNumber - b.partNumber);
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
        await fs.writeFile(dataFile(uploadId), '', { flag: 'wx' });

        return uploadId;
      },

      async putPart(_key, uploadId, part, body): Promise<StoredPart> {
        // Synchronous on purpose: no await may come before the body's pipeline (see writeAtomically).
        if (!existsSync(uploadDir(uploadId))) throw new ValidationError('upload.error.unknownUpload', 'The upload does not exist any more');
        // The bytes go straight to their place in the upload's one data file, so complete is a rename, not a
        // copy. The part's marker goes first: until the new bytes are all there the part counts as missing
        // (a re-sent part of the wrong size leaves it missing, to be sent again).
        rmSync(partFile(uploadId, part.partNumber), { force: true });
        const measure = new MeasuringStream(part.expectedSize, tooLarge(part.expectedSize));
        await pipeline(body, measure, createWriteStream(dataFile(uploadId), { flags: 'r+', start: part.offset }));
        if (measure.size !== part.expectedSize) {
          throw new ValidationError('upload.error.wrongPartSize', `Part ${part.partNumber} must be ${part.expectedSize} bytes, got ${measure.size}`, {
            partNumber: part.partNumber,
            expectedSize: part.expectedSize,
            receivedSize: measure.size,
          });
        }
        const marker = path.join(tmpDir, randomUUID());
        await fs.writeFile(marker, String(measure.size), { flag: 'wx' });
        await fs.rename(marker, partFile(uploadId, part.partNumber));

        return { size: measure.size, crc32: measure.crc32, etag: `"${measure.crc32}-${measure.size}"` };
      },

      async presignPart() {
        return undefined;
      },

      listParts(_key, uploadId) {
        return receivedParts(uploadId);
      },

      async complete(key, uploadId, parts) {
        const received = new Map((await receivedParts(uploadId)).map((p) => [p.partNumber, p.size]));
        const missing = parts.filter((p) => !received.has(p.partNumber)).map((p) => p.partNumber);
        if (missing.length > 0) throw new ValidationError('upload.error.missingParts', `Parts ${missing.join(', ')} were not received`, { missingParts: missing });
        const total = parts.reduce((sum, p) => sum + received.get(p.partNumber)!, 0);
        const target = fileOf(key);
        // A longer part sent earlier may have left bytes past the end: cut the file to the parts' total.
        await fs.truncate(dataFile(uploadId), total);
        await fs.mkdir(path.dirname(target), { recursive: true });
        await fs.rename(dataFile(uploadId), target);
        await fs.rm(uploadDir(uploadId), { recursive: true, force: true });
      },

      async abort(_key, uploadId) {
        await fs.rm(uploadDir(uploadId), { recursive: true, force: true });
      },
    },
  };
}
