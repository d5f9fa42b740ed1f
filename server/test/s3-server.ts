import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import S3rver, { type FilesystemStore, type S3rverContext } from '@20minutes/s3rver';
import authentication from '@20minutes/s3rver/lib/middleware/authentication.js';
import S3Error from '@20minutes/s3rver/lib/models/error.js';
import { S3_MIN_PART_SIZE } from '@/server/storage/s3-limits';

/**
 * A real S3-protocol server for tests: @20minutes/s3rver in this process on 127.0.0.1 (a free port),
 * storing under a temporary directory, SigV4 signatures (headers and presigned URLs) checked against
 * the key pair S3RVER/S3RVER. s3rver lacks a few multipart behaviours of S3 that the blob store relies
 * on; `addMultipartBehaviour` supplies them (see docs/decisions.md, "S3 test server").
 */
export type TestS3Server = {
  /** The S3_* variables for parseConfig / createTestContext(env). */
  env: Record<string, string>;
  endpoint: string;
  bucket: string;
  stop(): Promise<void>;
};

export async function startTestS3Server(options: { bucket?: string; minPartSize?: number } = {}): Promise<TestS3Server> {
  const bucket = options.bucket ?? 'signage-test';
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), 's3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    vhostBuckets: false,
    configureBuckets: [{ name: bucket }],
  });
  addMultipartBehaviour(server, options.minPartSize ?? S3_MIN_PART_SIZE);
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  let stopped = false;

  return {
    endpoint,
    bucket,
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
    /** Stops the server and removes its files; safe to call twice. */
    async stop() {
      if (stopped) return;
      stopped = true;
      server.httpServer?.closeAllConnections();
      await server.close();
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}

const noSuchUpload = () => new S3Error('NoSuchUpload', 'The specified multipart upload does not exist.');

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}

/**
 * s3rver has no ListParts and no AbortMultipartUpload, accepts parts for unknown uploads, overwrites a
 * part in place (so an aborted re-send destroys the earlier part) and completes without checking ETags
 * or part sizes. This adds those S3 behaviours on top of its filesystem layout
 * (`<bucket>/._S3rver_uploads/<uploadId>/{key,metadata,<n>,<n>.md5}`).
 */
function addMultipartBehaviour(server: S3rver, minPartSize: number) {
  const store: FilesystemStore = server.store;
  const uploadDir = (bucket: string, uploadId: string) => {
    if (!/^[0-9a-f]{1,64}$/.test(uploadId)) throw noSuchUpload();
    return path.join(store.getResourcePath(bucket, undefined, 'uploads'), uploadId);
  };
  const existingUploadDir = async (bucket: string, uploadId: string) => {
    const dir = uploadDir(bucket, uploadId);
    if (!(await exists(path.join(dir, 'key')))) throw noSuchUpload();
    return dir;
  };

  // A part becomes visible only once its whole body arrived, replacing the earlier one atomically.
  store.putPart = async (bucket, uploadId, partNumber, content) => {
    const dir = await existingUploadDir(bucket, uploadId).catch((error: unknown) => {
      content.resume();
      throw error;
    });
    const partPath = path.join(dir, String(partNumber));
    const tmp = `${partPath}.${randomUUID()}.tmp`;
    try {
      const [size, md5] = await store.putContent(tmp, content);
      await fs.writeFile(`${tmp}.md5`, md5);
      await fs.rename(tmp, partPath);
      await fs.rename(`${tmp}.md5`, `${partPath}.md5`);
      return { size, md5 };
    } catch (error) {
      await fs.rm(tmp, { force: true });
      await fs.rm(`${tmp}.md5`, { force: true });
      throw error;
    }
  };

  const assemble = store.putObjectMultipart.bind(store);
  store.putObjectMultipart = async (bucket, uploadId, parts) => {
    const dir = await existingUploadDir(bucket, uploadId);
    for (const [i, part] of parts.entries()) {
      if (i > 0 && part.number <= parts[i - 1]!.number)
        throw new S3Error('InvalidPartOrder', 'The list of parts was not in ascending order.');
      const file = path.join(dir, String(part.number));
      const md5 = await fs.readFile(`${file}.md5`, 'utf8').catch(() => undefined);
      if (md5 === undefined || md5 !== part.etag)
        throw new S3Error('InvalidPart', 'One or more of the specified parts could not be found.');
      const { size } = await fs.stat(file);
      if (i < parts.length - 1 && size < minPartSize)
        throw new S3Error('EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed size');
    }
    return assemble(bucket, uploadId, parts);
  };

  const authenticate = authentication();
  const handleUploadRequest = async (ctx: S3rverContext, next: () => Promise<void>) => {
    const bucketOnly = /^\/([^/]+)\/$/.exec(ctx.path);
    if (ctx.method === 'HEAD' && bucketOnly) {
      // The SDK signs HeadBucket as `/bucket/`; s3rver checks the signature against `/bucket`.
      const bucket = decodeURIComponent(bucketOnly[1]!);
      ctx.params = { bucket: `${bucket}/` };
      await authenticate(ctx, async () => {
        if (!(await store.getBucket(bucket))) throw new S3Error('NoSuchBucket', 'The specified bucket does not exist');
        ctx.status = 200;
      });
      return;
    }
    const uploadId = ctx.query.uploadId;
    const listParts = ctx.method === 'GET' && ctx.query.partNumber === undefined;
    if (typeof uploadId !== 'string' || !(listParts || ctx.method === 'DELETE')) return next();
    const [bucket = '', ...keyParts] = ctx.path.slice(1).split('/').map(decodeURIComponent);
    const key = keyParts.join('/');
    ctx.params = { bucket, key };
    await authenticate(ctx, async () => {
      const dir = await existingUploadDir(bucket, uploadId);
      if (ctx.method === 'DELETE') {
        await fs.rm(dir, { recursive: true, force: true });
        ctx.status = 204;
        return;
      }
      const marker = Number(ctx.query['part-number-marker'] ?? 0);
      const maxParts = Math.min(Number(ctx.query['max-parts'] ?? 1000), 1000);
      const numbers = (await fs.readdir(dir))
        .filter((name) => /^\d+$/.test(name))
        .map(Number)
        .filter((n) => n > marker)
        .sort((a, b) => a - b);
      const page = numbers.slice(0, maxParts);
      const parts = await Promise.all(
        page.map(async (n) => {
          const file = path.join(dir, String(n));
          const [stat, md5] = await Promise.all([fs.stat(file), fs.readFile(`${file}.md5`, 'utf8')]);
          return { PartNumber: n, LastModified: stat.mtime.toISOString(), ETag: JSON.stringify(md5), Size: stat.size };
        }),
      );
      ctx.body = {
        ListPartsResult: {
          '@': { xmlns: 'http://s3.amazonaws.com/doc/2006-03-01/' },
          Bucket: bucket,
          Key: key,
          UploadId: uploadId,
          PartNumberMarker: marker,
          NextPartNumberMarker: page.at(-1) ?? marker,
          MaxParts: maxParts,
          IsTruncated: numbers.length > page.length,
          Part: parts,
        },
      };
    });
  };
  // Before s3rver's router (the last middleware), after its XML encoder and virtual-host handling.
  server.middleware.splice(server.middleware.length - 1, 0, handleUploadRequest);
}
