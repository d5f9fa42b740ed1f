import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { buffer as readAll } from 'node:stream/consumers';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '@/server/config';
import { PayloadTooLargeError, ValidationError } from '@/server/errors';
import { startTestS3Server, type TestS3Server } from '@/server/test/s3-server';
import type { BlobStore } from './blob-store';
import { formatCrc32 } from './crc32';
import { createLocalStore } from './local-store';
import { S3_MIN_PART_SIZE, S3_PUT_PART_SIZE, createS3Store } from './s3-store';

/** The same contract, run against local files and against a real S3-protocol server (s3rver). */

const KiB = 1024;
const MiB = 1024 * KiB;

/** Streams `data` in 64 KiB chunks, as a request body would arrive. */
function streamOf(data: Buffer): Readable {
  const chunks: Buffer[] = [];
  for (let i = 0; i < data.length; i += 64 * KiB) chunks.push(data.subarray(i, i + 64 * KiB));

  return Readable.from(chunks);
}

const crcOf = (data: Buffer) => formatCrc32(zlib.crc32(data));

async function readBlob(store: BlobStore, key: string, range?: { start: number; end: number }): Promise<Buffer | undefined> {
  const stream = await store.read(key, range);

  return stream ? readAll(stream) : undefined;
}

type Backend = { name: 'local' | 's3'; open(): Promise<{ store: BlobStore; close(): Promise<void>; dir?: string }> };

const backends: Backend[] = [
  {
    name: 'local',
    async open() {
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'blob-store-'));

      return { store: createLocalStore(dir), close: () => fs.rm(dir, { recursive: true, force: true }), dir };
    },
  },
  {
    name: 's3',
    async open() {
      const server: TestS3Server = await startTestS3Server();
      const config = parseConfig({ NODE_ENV: 'test', ...server.env });

      return { store: createS3Store(config.s3!), close: () => server.stop() };
    },
  },
];

describe.each(backends)('$name blob store', (backend) => {
  let store: BlobStore;
  let close: () => Promise<void>;
  let dir: string | undefined;
  let n = 0;
  const key = () => `customer/1/files/test-${backend.name}-${++n}`;

  beforeAll(async () => {
    ({ store, close, dir } = await backend.open());
  });
  afterAll(async () => {
    await close();
  });

  it('answers ping', async () => {
    await expect(store.ping()).resolves.toBeUndefined();
    expect(store.kind).toBe(backend.name);
  });

  it('puts, reads, stats and deletes a blob', async () => {
    const k = key();
    const data = randomBytes(3 * MiB + 17);
    await expect(store.put(k, streamOf(data), { contentType: 'image/png' })).resolves.toEqual({ size: data.length, crc32: crcOf(data) });
    expect((await readBlob(store, k))!.equals(data)).toBe(true);
    const stat = await store.stat(k);
    expect(stat?.size).toBe(data.length);
    expect(stat?.lastModified).toBeInstanceOf(Date);

    await store.delete(k);
    expect(await store.read(k)).toBeUndefined();
    expect(await store.stat(k)).toBeUndefined();
    await expect(store.delete(k)).resolves.toBeUndefined();
  });

  it('streams a blob larger than one put part (multipart on S3)', async () => {
    const k = key();
    const data = randomBytes(S3_PUT_PART_SIZE + 300 * KiB);
    await expect(store.put(k, streamOf(data))).resolves.toEqual({ size: data.length, crc32: crcOf(data) });
    expect((await readBlob(store, k))!.equals(data)).toBe(true);
  });

  it('puts an empty blob', async () => {
    const k = key();
    await expect(store.put(k, Readable.from([]))).resolves.toEqual({ size: 0, crc32: '00000000' });
    expect(await store.stat(k)).toMatchObject({ size: 0 });
  });

  it('reads a byte range', async () => {
    const k = key();
    const data = randomBytes(MiB);
    await store.put(k, streamOf(data));
    expect((await readBlob(store, k, { start: 1000, end: 199_999 }))!.equals(data.subarray(1000, 200_000))).toBe(true);
    // (Not 0-0: s3rver reads an end of 0 as "to the end".)
    expect((await readBlob(store, k, { start: 5, end: 5 }))!.equals(data.subarray(5, 6))).toBe(true);
  });

  it('answers undefined for a blob that does not exist', async () => {
    expect(await store.read('customer/1/files/missing')).toBeUndefined();
    expect(await store.read('customer/1/files/missing', { start: 0, end: 9 })).toBeUndefined();
    expect(await store.stat('customer/1/files/missing')).toBeUndefined();
  });

  it('refuses a body over maxBytes and keeps nothing (small and multipart-sized)', async () => {
    const k = key();
    await expect(store.put(k, streamOf(randomBytes(100 * KiB)), { maxBytes: 1000 })).rejects.toBeInstanceOf(PayloadTooLargeError);
    expect(await store.stat(k)).toBeUndefined();
    await expect(store.put(k, streamOf(randomBytes(S3_PUT_PART_SIZE + MiB)), { maxBytes: S3_PUT_PART_SIZE + 1 })).rejects.toBeInstanceOf(
      PayloadTooLargeError,
    );
    expect(await store.stat(k)).toBeUndefined();

    // A failed replacement keeps the earlier blob.
    const earlier = randomBytes(10 * KiB);
    await store.put(k, streamOf(earlier));
    await expect(store.put(k, streamOf(randomBytes(20 * KiB)), { maxBytes: 15 * KiB })).rejects.toBeInstanceOf(PayloadTooLargeError);
    expect((await readBlob(store, k))!.equals(earlier)).toBe(true);
  });

  it('fails the put when the body stream fails', async () => {
    const k = key();
    let reads = 0;
    const body = new Readable({
      read() {
        if (++reads === 1) this.push(randomBytes(KiB));
        else this.destroy(new Error('client went away'));
      },
    });
    await expect(store.put(k, body)).rejects.toThrow('client went away');
    expect(await store.stat(k)).toBeUndefined();
  });

  // The temporary file was removed before its write stream had opened it, which then created it again: a later
  // test found it left in `.tmp`. A body over the limit, or one that fails, fails the put before the file is open.
  it.runIf(backend.name === 'local')('a failed put leaves no temporary file, however early it fails', async () => {
    for (let i = 0; i < 25; i += 1) {
      await expect(store.put(key(), streamOf(randomBytes(100 * KiB)), { maxBytes: 10 })).rejects.toBeInstanceOf(PayloadTooLargeError);
      let reads = 0;
      const body = new Readable({
        read() {
          if (++reads === 1) this.push(randomBytes(KiB));
          else this.destroy(new Error('client went away'));
        },
      });
      await expect(store.put(key(), body)).rejects.toThrow('client went away');
      expect(await fs.readdir(path.join(dir!, '.tmp'))).toEqual([]);
    }
  });

  describe('multipart', () => {
    const partSize = S3_MIN_PART_SIZE;

    it('assembles parts sent in any order and in parallel into the exact bytes', async () => {
      const k = key();
      const parts = [randomBytes(partSize), randomBytes(partSize), randomBytes(123 * KiB)];
      const uploadId = await store.multipart.create(k, { contentType: 'video/mp4' });
      const stored = await Promise.all(
        [2, 0, 1].map(async (i) => {
          const p = await store.multipart.putPart(
            k,
            uploadId,
            { partNumber: i + 1, offset: i * partSize, expectedSize: parts[i]!.length },
            streamOf(parts[i]!),
          );
          return { i, ...p };
        }),
      );
      for (const s of stored) expect(s).toMatchObject({ size: parts[s.i]!.length, crc32: crcOf(parts[s.i]!) });

      const listed = await store.multipart.listParts(k, uploadId);
      expect(listed.map((p) => [p.partNumber, p.size])).toEqual([
        [1, partSize],
        [2, partSize],
        [3, 123 * KiB],
      ]);

      const byNumber = stored.sort((a, b) => a.i - b.i).map((s) => ({ partNumber: s.i + 1, etag: s.etag }));
      await store.multipart.complete(k, uploadId, byNumber);
      expect((await readBlob(store, k))!.equals(Buffer.concat(parts))).toBe(true);
      expect(await store.multipart.listParts(k, uploadId)).toEqual([]);
    });

    it('refuses a too short or too long part', async () => {
      const k = key();
      const uploadId = await store.multipart.create(k);
      const size = 200 * KiB;
      const short = store.multipart.putPart(k, uploadId, { partNumber: 1, offset: 0, expectedSize: size }, streamOf(randomBytes(size - 1)));
      await expect(short).rejects.toBeInstanceOf(ValidationError);
      await expect(short).rejects.toMatchObject({
        key: 'upload.error.wrongPartSize',
        details: { expectedSize: size, receivedSize: size - 1 },
      });
      const long = store.multipart.putPart(
        k,
        uploadId,
        { partNumber: 2, offset: size, expectedSize: size },
        streamOf(randomBytes(size + 1)),
      );
      await expect(long).rejects.toBeInstanceOf(PayloadTooLargeError);
      expect(await store.multipart.listParts(k, uploadId)).toEqual([]);
      await store.multipart.abort(k, uploadId);
    });

    // Both stores keep the earlier copy of a part when a re-send fails (the local store writes a re-send
    // to a file of its own), so nothing wrong is ever completed and nothing right is lost.
    it('refuses a re-sent part of the wrong size, keeps the earlier copy and never completes with it', async () => {
      const k = key();
      const uploadId = await store.multipart.create(k);
      const good = randomBytes(200 * KiB);
      const first = await store.multipart.putPart(k, uploadId, { partNumber: 1, offset: 0, expectedSize: good.length }, streamOf(good));

      const short = store.multipart.putPart(
        k,
        uploadId,
        { partNumber: 1, offset: 0, expectedSize: good.length },
        streamOf(randomBytes(good.length - 1)),
      );
      await expect(short).rejects.toBeInstanceOf(ValidationError);
      await expect(short).rejects.toMatchObject({ key: 'upload.error.wrongPartSize' });
      const long = store.multipart.putPart(
        k,
        uploadId,
        { partNumber: 1, offset: 0, expectedSize: good.length },
        streamOf(randomBytes(good.length + 1)),
      );
      await expect(long).rejects.toBeInstanceOf(PayloadTooLargeError);
      const tooShortNew = store.multipart.putPart(
        k,
        uploadId,
        { partNumber: 2, offset: good.length, expectedSize: 10 },
        streamOf(randomBytes(5)),
      );
      await expect(tooShortNew).rejects.toMatchObject({ key: 'upload.error.wrongPartSize' });

      expect((await store.multipart.listParts(k, uploadId)).map((p) => [p.partNumber, p.size, p.etag])).toEqual([
        [1, good.length, first.etag],
      ]);
      await store.multipart.complete(k, uploadId, [{ partNumber: 1, etag: first.etag }]);
      expect((await readBlob(store, k))!.equals(good)).toBe(true);
    });

    it('replaces a part sent again', async () => {
      const k = key();
      const uploadId = await store.multipart.create(k);
      const p1 = randomBytes(partSize);
      const before = randomBytes(50 * KiB);
      const after = randomBytes(50 * KiB);
      const first = await store.multipart.putPart(k, uploadId, { partNumber: 1, offset: 0, expectedSize: partSize }, streamOf(p1));
      await store.multipart.putPart(k, uploadId, { partNumber: 2, offset: partSize, expectedSize: before.length }, streamOf(before));
      const again = await store.multipart.putPart(
        k,
        uploadId,
        { partNumber: 2, offset: partSize, expectedSize: after.length },
        streamOf(after),
      );
      expect(await store.multipart.listParts(k, uploadId)).toHaveLength(2);
      await store.multipart.complete(k, uploadId, [
        { partNumber: 1, etag: first.etag },
        { partNumber: 2, etag: again.etag },
      ]);
      expect((await readBlob(store, k))!.equals(Buffer.concat([p1, after]))).toBe(true);
    });

    /** A body the test feeds by hand, so the order in which concurrent sends complete is fixed. */
    function heldBody(data: Buffer, firstBytes: number) {
      const body = new PassThrough();
      body.write(data.subarray(0, firstBytes));

      return { body, finish: () => body.end(data.subarray(firstBytes)) };
    }
    const settle = () => new Promise((resolve) => setTimeout(resolve, 150));

    it.each([
      ['the earlier send completes last', 'a'],
      ['the later send completes last', 'b'],
    ] as const)(
      'concurrent sends of one part: the last to complete wins whole (%s), and commit sees them in that order',
      async (_label, last) => {
        const k = key();
        const uploadId = await store.multipart.create(k);
        const size = 300 * KiB;
        const data = { a: randomBytes(size), b: randomBytes(size) };
        const committed: string[] = [];
        const commit = (name: string) => async (part: { crc32: string }) => {
          committed.push(`${name}:${part.crc32}`);
        };
        const a = heldBody(data.a, 100 * KiB);
        const putA = store.multipart.putPart(k, uploadId, { partNumber: 1, offset: 0, expectedSize: size }, a.body, {
          commit: commit('a'),
        });
        await settle();
        const b = heldBody(data.b, 50 * KiB);
        const putB = store.multipart.putPart(k, uploadId, { partNumber: 1, offset: 0, expectedSize: size }, b.body, {
          commit: commit('b'),
        });
        await settle();
        const first = last === 'a' ? b : a;
        const second = last === 'a' ? a : b;
        first.finish();
        await (last === 'a' ? putB : putA);
        second.finish();
        const [storedA, storedB] = await Promise.all([putA, putB]);
        expect(storedA.crc32).toBe(crcOf(data.a));
        expect(storedB.crc32).toBe(crcOf(data.b));

        const winner = last === 'a' ? storedA : storedB;
        expect(committed).toEqual(
          last === 'a' ? [`b:${storedB.crc32}`, `a:${storedA.crc32}`] : [`a:${storedA.crc32}`, `b:${storedB.crc32}`],
        );
        const listed = await store.multipart.listParts(k, uploadId);
        expect(listed.map((p) => [p.partNumber, p.size, p.etag])).toEqual([[1, size, winner.etag]]);
        await store.multipart.complete(k, uploadId, [{ partNumber: 1, etag: winner.etag }]);
        expect((await readBlob(store, k))!.equals(data[last])).toBe(true);
      },
    );

    it('abort stops a part still arriving: the send fails and nothing of the upload remains', async () => {
      const k = key();
      const uploadId = await store.multipart.create(k);
      const size = 200 * KiB;
      const held = heldBody(randomBytes(size), 64 * KiB);
      const put = store.multipart.putPart(k, uploadId, { partNumber: 1, offset: 0, expectedSize: size }, held.body);
      put.catch(() => undefined);
      await settle();
      await store.multipart.abort(k, uploadId);
      held.finish();
      // Local: 409 notOpen once the body has been read (no reset); S3: the upload is gone (NoSuchUpload).
      await expect(put).rejects.toMatchObject({ key: backend.name === 'local' ? 'upload.error.notOpen' : 'upload.error.unknownUpload' });
      await store.multipart.abort(k, uploadId);
      expect(await store.multipart.listParts(k, uploadId)).toEqual([]);
      expect(await store.stat(k)).toBeUndefined();
      if (dir) {
        expect(await fs.readdir(path.join(dir, '.tmp'))).toEqual([]);
        expect(await fs.readdir(path.join(dir, '.multipart'))).not.toContain(uploadId);
      }
    });

    it.runIf(backend.name === 'local')('a re-send arriving during complete is refused and cannot touch the completed blob', async () => {
      const k = key();
      const uploadId = await store.multipart.create(k);
      const good = randomBytes(200 * KiB);
      const first = await store.multipart.putPart(k, uploadId, { partNumber: 1, offset: 0, expectedSize: good.length }, streamOf(good));
      const held = heldBody(randomBytes(good.length), 64 * KiB);
      const resend = store.multipart.putPart(k, uploadId, { partNumber: 1, offset: 0, expectedSize: good.length }, held.body);
      resend.catch(() => undefined);
      await settle();
      await store.multipart.complete(k, uploadId, [{ partNumber: 1, etag: first.etag }]);
      held.finish();
      await expect(resend).rejects.toMatchObject({ key: 'upload.error.notOpen' });
      expect((await readBlob(store, k))!.equals(good)).toBe(true);
      expect(await fs.readdir(path.join(dir!, '.multipart'))).not.toContain(uploadId);
    });

    it.runIf(backend.name === 'local')('a commit that refuses keeps the earlier copy of the part', async () => {
      const k = key();
      const uploadId = await store.multipart.create(k);
      const good = randomBytes(100 * KiB);
      const first = await store.multipart.putPart(k, uploadId, { partNumber: 1, offset: 0, expectedSize: good.length }, streamOf(good));
      const refused = store.multipart.putPart(
        k,
        uploadId,
        { partNumber: 1, offset: 0, expectedSize: good.length },
        streamOf(randomBytes(good.length)),
        {
          commit: async () => {
            throw new Error('session closed');
          },
        },
      );
      await expect(refused).rejects.toThrow('session closed');
      expect((await store.multipart.listParts(k, uploadId)).map((p) => p.etag)).toEqual([first.etag]);
      await store.multipart.complete(k, uploadId, [{ partNumber: 1, etag: first.etag }]);
      expect((await readBlob(store, k))!.equals(good)).toBe(true);
      expect((await fs.readdir(path.join(dir!, '.multipart'))).filter((d) => d === uploadId)).toEqual([]);
    });

    it('aborts idempotently and refuses parts afterwards', async () => {
      const k = key();
      const uploadId = await store.multipart.create(k);
      await store.multipart.putPart(k, uploadId, { partNumber: 1, offset: 0, expectedSize: 1000 }, streamOf(randomBytes(1000)));
      await store.multipart.abort(k, uploadId);
      await expect(store.multipart.abort(k, uploadId)).resolves.toBeUndefined();
      expect(await store.multipart.listParts(k, uploadId)).toEqual([]);
      await expect(
        store.multipart.putPart(k, uploadId, { partNumber: 1, offset: 0, expectedSize: 1000 }, streamOf(randomBytes(1000))),
      ).rejects.toMatchObject({ key: 'upload.error.unknownUpload' });
      expect(await store.stat(k)).toBeUndefined();
    });

    it.runIf(backend.name === 's3')('accepts parts PUT directly to presigned URLs and lists them', async () => {
      const k = key();
      const uploadId = await store.multipart.create(k);
      const parts = [randomBytes(partSize), randomBytes(77 * KiB)];
      for (const [i, data] of parts.entries()) {
        const url = await store.multipart.presignPart(k, uploadId, i + 1, 300);
        expect(url).toMatch(/X-Amz-Signature=/);
        const res = await fetch(url!, { method: 'PUT', body: data });
        expect(res.status).toBe(200);
      }
      // A URL with a tampered signature is refused.
      const forged = (await store.multipart.presignPart(k, uploadId, 3, 300))!.replace(/X-Amz-Signature=[0-9a-f]/, 'X-Amz-Signature=x');
      expect((await fetch(forged, { method: 'PUT', body: 'x' })).status).toBe(403);

      const listed = await store.multipart.listParts(k, uploadId);
      expect(listed.map((p) => [p.partNumber, p.size])).toEqual([
        [1, partSize],
        [2, 77 * KiB],
      ]);
      expect(listed.every((p) => p.etag.length > 2)).toBe(true);
      await store.multipart.complete(k, uploadId, listed);
      expect((await readBlob(store, k))!.equals(Buffer.concat(parts))).toBe(true);
    });

    it.runIf(backend.name === 'local')('has no presigned part URLs', async () => {
      const uploadId = await store.multipart.create(key());
      expect(await store.multipart.presignPart('customer/1/files/x', uploadId, 1, 300)).toBeUndefined();
    });

    it.runIf(backend.name === 's3')('refuses to complete with a part under 5 MiB before the last (as S3 does)', async () => {
      const k = key();
      const uploadId = await store.multipart.create(k);
      const a = await store.multipart.putPart(k, uploadId, { partNumber: 1, offset: 0, expectedSize: 1000 }, streamOf(randomBytes(1000)));
      const b = await store.multipart.putPart(
        k,
        uploadId,
        { partNumber: 2, offset: 1000, expectedSize: 1000 },
        streamOf(randomBytes(1000)),
      );
      await expect(
        store.multipart.complete(k, uploadId, [
          { partNumber: 1, etag: a.etag },
          { partNumber: 2, etag: b.etag },
        ]),
      ).rejects.toMatchObject({ key: 'upload.error.partTooSmall' });
      await store.multipart.abort(k, uploadId);
    });
  });
});

describe('local blob store: abandoned writes', () => {
  it('sweeps temporary files and multipart uploads older than the threshold, and nothing newer', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'blob-store-sweep-'));
    try {
      const store = createLocalStore(dir);
      const old = new Date(Date.now() - 3 * 24 * 60 * 60 * 1000);
      // What a crash leaves: a half-written temporary file, and a multipart upload nobody recorded.
      await fs.writeFile(path.join(dir, '.tmp', 'crashed-write'), 'partial');
      await fs.utimes(path.join(dir, '.tmp', 'crashed-write'), old, old);
      const abandoned = await store.multipart.create('customer/1/files/a');
      await fs.utimes(path.join(dir, '.multipart', abandoned), old, old);
      const live = await store.multipart.create('customer/1/files/b');
      await store.put('customer/1/files/kept', Readable.from([Buffer.from('blob')]));

      expect(await store.sweepAbandoned(48 * 60 * 60 * 1000)).toBe(2);
      expect(await fs.readdir(path.join(dir, '.tmp'))).toEqual([]);
      expect(await fs.readdir(path.join(dir, '.multipart'))).toEqual([live]);
      expect((await store.stat('customer/1/files/kept'))?.size).toBe(4);
      expect(await store.sweepAbandoned(48 * 60 * 60 * 1000)).toBe(0);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
