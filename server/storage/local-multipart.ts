import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import fs, { type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ConflictError, PayloadTooLargeError, ValidationError } from '@/server/errors';
import type { MultipartPart, MultipartStore, StoredPart } from './blob-store';
import { MeasuringStream } from './crc32';

/*
 * Local multipart uploads (docs/decisions.md "Local multipart uploads"). An upload is a directory
 * `.multipart/<uploadId>/` holding one data file, into which the first send of each part is written
 * straight at its offset (so complete is a rename, not a copy of gigabytes), and a marker file per
 * received part (`<n>`, JSON: size, CRC32, ETag and, for a part kept in a file of its own, that
 * file's name).
 *
 * A part that was received already, or is still arriving, is written to a file of its own
 * (`<n>.<random>`), so a re-send never touches the bytes in use: if it fails, the earlier copy stays;
 * if it completes, its marker replaces the earlier one (write, then rename: atomic). Commits of an
 * upload run one at a time, so of concurrent sends of one part the last to complete wins whole, and
 * the `commit` callback (the service records the part's CRC there) sees them in the same order.
 * Complete copies the few parts kept in files of their own into the data file, then renames it.
 *
 * The store is used by one process (DATA_DIR is locked), so in-process state can coordinate the
 * writers: complete and abort stop the writers still running (they read the rest of their body without
 * writing it and answer 409), so nothing is written into a completed blob or left behind.
 */

type Marker = { size: number; crc32?: string; etag: string; file?: string };

/** One writer's destination: a file at a position. After `stop()` it accepts and drops everything. */
class PartSink extends Writable {
  private handle: FileHandle | undefined;
  private position: number;
  private pending: Promise<unknown> = Promise.resolve();
  stopped = false;

  constructor(
    private readonly file: string,
    private readonly flags: 'r+' | 'wx',
    start: number,
  ) {
    super({ highWaterMark: 1024 * 1024 });
    this.position = start;
  }

  private track(work: Promise<unknown>, callback: (error?: Error | null) => void) {
    this.pending = work.catch(() => undefined);
    work.then(
      () => callback(),
      (error: Error) => callback(error),
    );
  }

  override _construct(callback: (error?: Error | null) => void) {
    this.track(
      fs.open(this.file, this.flags).then(
        async (handle) => {
          if (this.stopped) await handle.close();
          else this.handle = handle;
        },
        (error: unknown) => {
          // The upload was completed or aborted before the file was open: nothing to write to.
          if (!this.stopped) throw error;
        },
      ),
      callback,
    );
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void) {
    this._writev([{ chunk }], callback);
  }

  override _writev(chunks: Array<{ chunk: Buffer }>, callback: (error?: Error | null) => void) {
    const handle = this.handle;
    if (this.stopped || !handle) {
      callback();
      return;
    }
    this.track(
      this.writeAll(
        handle,
        chunks.map((c) => c.chunk),
      ),
      callback,
    );
  }

  private async writeAll(handle: FileHandle, buffers: Buffer[]) {
    let remaining = buffers;
    while (remaining.length > 0) {
      const { bytesWritten } = await handle.writev(remaining, this.position);
      this.position += bytesWritten;
      remaining = skipBytes(remaining, bytesWritten);
    }
  }

  override _final(callback: (error?: Error | null) => void) {
    this.track(this.closeHandle(), callback);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void) {
    this.pending
      .then(() => this.closeHandle())
      .then(
        () => callback(error),
        () => callback(error),
      );
  }

  private async closeHandle() {
    const handle = this.handle;
    this.handle = undefined;
    await handle?.close();
  }

  /** Stops writing: resolves once no write is in flight and the file is closed. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.pending;
    await this.closeHandle().catch(() => undefined);
  }
}

function skipBytes(buffers: Buffer[], count: number): Buffer[] {
  let left = count;
  const out: Buffer[] = [];
  for (const buffer of buffers) {
    if (left >= buffer.length) {
      left -= buffer.length;
      continue;
    }
    out.push(left > 0 ? buffer.subarray(left) : buffer);
    left = 0;
  }

  return out;
}

/** The in-process coordination of one upload's writers; dropped when nothing uses it. */
type UploadState = {
  closed: boolean;
  tail: Promise<void>;
  writers: Set<PartSink>;
  /** Parts being written straight into the data file. */
  direct: Set<number>;
  users: number;
};

const notOpen = () => new ConflictError('upload.error.notOpen', 'The upload was completed or cancelled while the part was arriving');
const unknownUpload = () => new ValidationError('upload.error.unknownUpload', 'The upload does not exist any more');
const tooLarge = (max: number) => () =>
  new PayloadTooLargeError(`The body is larger than ${max} bytes`, 'upload.error.tooLarge', { maxBytes: max });

export function createLocalMultipart(input: { multipartDir: string; fileOf: (key: string) => string }): MultipartStore {
  const { multipartDir, fileOf } = input;
  const states = new Map<string, UploadState>();

  const uploadDir = (uploadId: string) => {
    if (!/^[0-9a-f-]{36}$/.test(uploadId)) throw new ValidationError('upload.error.invalidId', 'Unknown upload id');
    return path.join(multipartDir, uploadId);
  };
  const markerFile = (uploadId: string, partNumber: number) => path.join(uploadDir(uploadId), String(partNumber));
  const dataFile = (uploadId: string) => path.join(uploadDir(uploadId), 'data');

  function acquire(uploadId: string): UploadState {
    let state = states.get(uploadId);
    if (!state) {
      state = { closed: false, tail: Promise.resolve(), writers: new Set(), direct: new Set(), users: 0 };
      states.set(uploadId, state);
    }
    state.users++;

    return state;
  }
  function release(uploadId: string, state: UploadState) {
    if (--state.users === 0 && states.get(uploadId) === state) states.delete(uploadId);
  }
  /** Runs `work` after every earlier commit, complete or abort of the upload. */
  async function exclusive<T>(uploadId: string, work: (state: UploadState) => Promise<T>): Promise<T> {
    const state = acquire(uploadId);
    const result = state.tail.then(() => work(state));
    state.tail = result.then(
      () => undefined,
      () => undefined,
    );
    try {
      return await result;
    } finally {
      release(uploadId, state);
    }
  }

  async function readMarker(uploadId: string, partNumber: number): Promise<Marker | undefined> {
    let text: string;
    try {
      text = await fs.readFile(markerFile(uploadId, partNumber), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    const parsed: unknown = JSON.parse(text);
    // Markers written before parts were kept whole held the size alone.
    if (typeof parsed === 'number') return { size: parsed, etag: '' };

    return parsed as Marker;
  }

  async function readMarkers(uploadId: string): Promise<Map<number, Marker>> {
    let names: string[];
    try {
      names = await fs.readdir(uploadDir(uploadId));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new Map();
      throw error;
    }
    const out = new Map<number, Marker>();
    for (const name of names.filter((n) => /^\d+$/.test(n))) {
      const marker = await readMarker(uploadId, Number(name));
      if (marker) out.set(Number(name), marker);
    }

    return out;
  }

  async function writeMarker(uploadId: string, partNumber: number, marker: Marker) {
    const tmp = path.join(uploadDir(uploadId), `marker.${randomUUID()}`);
    try {
      await fs.writeFile(tmp, JSON.stringify(marker), { flag: 'wx' });
      await fs.rename(tmp, markerFile(uploadId, partNumber));
    } catch (error) {
      await fs.rm(tmp, { force: true });
      throw error;
    }
  }

  /** Closes the upload to writers: those still running stop writing (and answer 409 when their body ends). */
  async function closeUpload(state: UploadState) {
    state.closed = true;
    await Promise.all([...state.writers].map((w) => w.stop()));
  }

  return {
    async create() {
      const uploadId = randomUUID();
      await fs.mkdir(uploadDir(uploadId), { recursive: true });
      await fs.writeFile(dataFile(uploadId), '', { flag: 'wx' });

      return uploadId;
    },

    async putPart(_key, uploadId, part, body, options = {}): Promise<StoredPart> {
      // Synchronous up to the pipeline on purpose: no await may come before the body is listened to, and
      // the checks below must see the same state as the registration of this writer.
      if (!existsSync(uploadDir(uploadId))) throw unknownUpload();
      const state = acquire(uploadId);
      if (state.closed) {
        release(uploadId, state);
        throw notOpen();
      }
      const { partNumber } = part;
      const direct = !state.direct.has(partNumber) && !existsSync(markerFile(uploadId, partNumber));
      const ownFile = direct ? undefined : `${partNumber}.${randomUUID()}`;
      const sink = direct
        ? new PartSink(dataFile(uploadId), 'r+', part.offset)
        : new PartSink(path.join(uploadDir(uploadId), ownFile!), 'wx', 0);
      if (direct) state.direct.add(partNumber);
      state.writers.add(sink);
      let kept = false;
      try {
        const measure = new MeasuringStream(part.expectedSize, tooLarge(part.expectedSize));
        await pipeline(body, measure, sink);
        if (sink.stopped) throw notOpen();
        if (measure.size !== part.expectedSize) {
          throw new ValidationError(
            'upload.error.wrongPartSize',
            `Part ${partNumber} must be ${part.expectedSize} bytes, got ${measure.size}`,
            {
              partNumber,
              expectedSize: part.expectedSize,
              receivedSize: measure.size,
            },
          );
        }
        const stored: StoredPart = { size: measure.size, crc32: measure.crc32, etag: `"${measure.crc32}-${measure.size}"` };
        await exclusive(uploadId, async (current) => {
          if (current.closed || sink.stopped) throw notOpen();
          await options.commit?.(stored);
          const previous = await readMarker(uploadId, partNumber);
          await writeMarker(uploadId, partNumber, { size: stored.size, crc32: stored.crc32, etag: stored.etag, file: ownFile });
          kept = true;
          if (previous?.file && previous.file !== ownFile) await fs.rm(path.join(uploadDir(uploadId), previous.file), { force: true });
        });

        return stored;
      } finally {
        state.writers.delete(sink);
        if (direct) state.direct.delete(partNumber);
        if (!kept && ownFile) await fs.rm(path.join(uploadDir(uploadId), ownFile), { force: true }).catch(() => undefined);
        release(uploadId, state);
      }
    },

    async presignPart() {
      return undefined;
    },

    async listParts(_key, uploadId): Promise<MultipartPart[]> {
      const markers = await readMarkers(uploadId);

      return [...markers.entries()]
        .map(([partNumber, m]) => ({ partNumber, size: m.size, etag: m.etag }))
        .sort((a, b) => a.partNumber - b.partNumber);
    },

    async complete(key, uploadId, parts) {
      await exclusive(uploadId, async (state) => {
        const markers = await readMarkers(uploadId);
        const missing = parts.filter((p) => !markers.has(p.partNumber)).map((p) => p.partNumber);
        if (missing.length > 0)
          throw new ValidationError('upload.error.missingParts', `Parts ${missing.join(', ')} were not received`, {
            missingParts: missing,
          });
        await closeUpload(state);
        try {
          const sorted = [...parts].sort((a, b) => a.partNumber - b.partNumber);
          let offset = 0;
          for (const p of sorted) {
            const marker = markers.get(p.partNumber)!;
            // A re-sent part lives in a file of its own: copy it to its place (rare, one part's bytes).
            if (marker.file) {
              await pipeline(
                createReadStream(path.join(uploadDir(uploadId), marker.file)),
                createWriteStream(dataFile(uploadId), { flags: 'r+', start: offset }),
              );
            }
            offset += marker.size;
          }
          // A longer part sent earlier may have left bytes past the end: cut the file to the parts' total.
          await fs.truncate(dataFile(uploadId), offset);
          const target = fileOf(key);
          await fs.mkdir(path.dirname(target), { recursive: true });
          await fs.rename(dataFile(uploadId), target);
        } catch (error) {
          state.closed = false;
          throw error;
        }
        await fs.rm(uploadDir(uploadId), { recursive: true, force: true });
      });
    },

    async abort(_key, uploadId) {
      await exclusive(uploadId, async (state) => {
        await closeUpload(state);
        await fs.rm(uploadDir(uploadId), { recursive: true, force: true });
      });
    },
  };
}
