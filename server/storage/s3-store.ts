import { Readable, Transform, type TransformCallback } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListPartsCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Config } from '@/server/config';
import { PayloadTooLargeError, ValidationError } from '@/server/errors';
import type { BlobStore, ByteRange, MultipartPart, PutOptions, StoredBlob, StoredPart } from './blob-store';
import { MeasuringStream } from './crc32';
import { S3_MIN_PART_SIZE } from './s3-limits';

export { S3_MIN_PART_SIZE } from './s3-limits';

/** `put` sends bodies of unknown length in parts of about this size; memory per running put is bounded by it. */
export const S3_PUT_PART_SIZE = 8 * 1024 * 1024;

type S3Config = NonNullable<Config['s3']>;

function errorName(error: unknown): string | undefined {
  return error instanceof Error ? error.name : undefined;
}

const tooLarge = (max: number) => () =>
  new PayloadTooLargeError(`The body is larger than ${max} bytes`, 'upload.error.tooLarge', { maxBytes: max });

const unknownUpload = () => new ValidationError('upload.error.unknownUpload', 'The upload does not exist any more');

/**
 * Passes bytes on but always keeps the latest chunk back until the source ended and `check` found the
 * total right. A body of the wrong length therefore never reaches the declared Content-Length, so the
 * store sees an aborted request and keeps no part (a race-free "exactly N bytes").
 */
class HoldLastChunk extends Transform {
  private held: Buffer | undefined;

  constructor(private readonly check: () => Error | undefined) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    const previous = this.held;
    this.held = chunk;
    callback(null, previous);
  }

  override _flush(callback: TransformCallback) {
    const error = this.check();
    if (error) {
      callback(error);
      return;
    }
    callback(null, this.held);
  }
}

function createS3Client(config: S3Config): S3Client {
  return new S3Client({
    endpoint: config.endpoint,
    // The SDK insists on a region; S3-compatible stores mostly ignore it.
    region: config.region ?? 'us-east-1',
    forcePathStyle: config.forcePathStyle,
    credentials:
      config.accessKeyId && config.secretAccessKey
        ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey }
        : undefined,
    // Default checksums would send streamed bodies as aws-chunked with trailers, which many
    // S3-compatible stores refuse; we compute CRC32 ourselves (MeasuringStream).
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/**
 * Blobs in an S3-compatible bucket (DECISIONS §1). Bodies stream through: `put` sends small bodies as
 * one PutObject and larger ones as a multipart upload of S3_PUT_PART_SIZE parts (aborted on failure,
 * so a failed put leaves nothing behind); client uploads map one to one onto S3 multipart uploads, so
 * presigned part URLs can bypass the service.
 */
export function createS3Store(config: S3Config, client: S3Client = createS3Client(config)): BlobStore {
  const Bucket = config.bucket;

  async function abortQuietly(key: string, uploadId: string): Promise<void> {
    await client.send(new AbortMultipartUploadCommand({ Bucket, Key: key, UploadId: uploadId })).catch(() => undefined);
  }

  async function uploadBufferPart(key: string, uploadId: string, partNumber: number, body: Buffer) {
    const out = await client.send(
      new UploadPartCommand({ Bucket, Key: key, UploadId: uploadId, PartNumber: partNumber, Body: body, ContentLength: body.length }),
    );

    return { PartNumber: partNumber, ETag: out.ETag };
  }

  return {
    kind: 's3',

    async put(key: string, body: Readable, options: PutOptions = {}): Promise<StoredBlob> {
      const max = options.maxBytes ?? Number.POSITIVE_INFINITY;
      const measure = new MeasuringStream(max, tooLarge(max));
      body.once('error', (error) => measure.destroy(error));
      body.pipe(measure);
      let uploadId: string | undefined;
      const parts: Array<{ PartNumber: number; ETag: string | undefined }> = [];
      let pending: Buffer[] = [];
      let pendingSize = 0;
      try {
        for await (const chunk of measure as AsyncIterable<Buffer>) {
          pending.push(chunk);
          pendingSize += chunk.length;
          if (pendingSize >= S3_PUT_PART_SIZE) {
            uploadId ??= (await client.send(new CreateMultipartUploadCommand({ Bucket, Key: key, ContentType: options.contentType })))
              .UploadId;
            if (!uploadId) throw new Error('S3 answered CreateMultipartUpload without an UploadId');
            parts.push(await uploadBufferPart(key, uploadId, parts.length + 1, Buffer.concat(pending)));
            pending = [];
            pendingSize = 0;
          }
        }
        if (uploadId === undefined) {
          const data = Buffer.concat(pending);
          await client.send(
            new PutObjectCommand({ Bucket, Key: key, Body: data, ContentLength: data.length, ContentType: options.contentType }),
          );
        } else {
          if (pendingSize > 0) parts.push(await uploadBufferPart(key, uploadId, parts.length + 1, Buffer.concat(pending)));
          await client.send(
            new CompleteMultipartUploadCommand({ Bucket, Key: key, UploadId: uploadId, MultipartUpload: { Parts: parts } }),
          );
        }
      } catch (error) {
        body.destroy();
        if (uploadId !== undefined) await abortQuietly(key, uploadId);
        throw error;
      }

      return { size: measure.size, crc32: measure.crc32 };
    },

    async read(key: string, range?: ByteRange): Promise<Readable | undefined> {
      try {
        const out = await client.send(
          new GetObjectCommand({ Bucket, Key: key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
        );
        if (!(out.Body instanceof Readable)) throw new Error('S3 answered GetObject without a body stream');

        return out.Body;
      } catch (error) {
        if (errorName(error) === 'NoSuchKey') return undefined;
        throw error;
      }
    },

    async stat(key: string) {
      try {
        const out = await client.send(new HeadObjectCommand({ Bucket, Key: key }));

        return { size: out.ContentLength ?? 0, lastModified: out.LastModified ?? new Date(0) };
      } catch (error) {
        // HEAD answers carry no error body: the SDK names a 404 NotFound.
        if (errorName(error) === 'NotFound' || errorName(error) === 'NoSuchKey') return undefined;
        throw error;
      }
    },

    async delete(key: string) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },

    async ping() {
      await client.send(new HeadBucketCommand({ Bucket }));
    },

    // Incomplete multipart uploads are the bucket's to expire (lifecycle rule, see README); nothing else is left.
    async sweepAbandoned() {
      return 0;
    },

    multipart: {
      async create(key, options = {}) {
        const out = await client.send(new CreateMultipartUploadCommand({ Bucket, Key: key, ContentType: options.contentType }));
        if (!out.UploadId) throw new Error('S3 answered CreateMultipartUpload without an UploadId');

        return out.UploadId;
      },

      // S3 replaces a part atomically (the last UploadPart to complete wins) and keeps the earlier copy
      // when a send fails; `commit` runs after S3 took the part (which copy S3 keeps among concurrent
      // sends is S3's to decide: the service compares ETags before it trusts a recorded CRC).
      async putPart(key, uploadId, part, body, options = {}): Promise<StoredPart> {
        const { partNumber, expectedSize } = part;
        const measure = new MeasuringStream(expectedSize, tooLarge(expectedSize));
        const gate = new HoldLastChunk(() =>
          measure.size === expectedSize
            ? undefined
            : new ValidationError('upload.error.wrongPartSize', `Part ${partNumber} must be ${expectedSize} bytes, got ${measure.size}`, {
                partNumber,
                expectedSize,
                receivedSize: measure.size,
              }),
        );
        // The SDK pipes the body into the request without watching it for errors: abort the request ourselves.
        const controller = new AbortController();
        let bodyError: unknown;
        const fail = (error: unknown) => {
          bodyError ??= error;
          controller.abort();
        };
        body.once('error', fail);
        measure.once('error', fail);
        gate.once('error', fail);
        body.pipe(measure).pipe(gate);
        let etag: string;
        try {
          const out = await client.send(
            new UploadPartCommand({
              Bucket,
              Key: key,
              UploadId: uploadId,
              PartNumber: partNumber,
              Body: gate,
              ContentLength: expectedSize,
            }),
            { abortSignal: controller.signal },
          );
          etag = out.ETag ?? '';
        } catch (error) {
          body.destroy();
          measure.destroy();
          gate.destroy();
          if (bodyError !== undefined) throw bodyError;
          if (errorName(error) === 'NoSuchUpload') throw unknownUpload();
          throw error;
        }
        const stored = { size: measure.size, crc32: measure.crc32, etag };
        await options.commit?.(stored);

        return stored;
      },

      async presignPart(key, uploadId, partNumber, expiresInSeconds) {
        return getSignedUrl(client, new UploadPartCommand({ Bucket, Key: key, UploadId: uploadId, PartNumber: partNumber }), {
          expiresIn: expiresInSeconds,
        });
      },

      async listParts(key, uploadId): Promise<MultipartPart[]> {
        const parts: MultipartPart[] = [];
        let marker: string | undefined;
        try {
          for (;;) {
            const out = await client.send(new ListPartsCommand({ Bucket, Key: key, UploadId: uploadId, PartNumberMarker: marker }));
            for (const p of out.Parts ?? []) {
              if (p.PartNumber !== undefined) parts.push({ partNumber: p.PartNumber, etag: p.ETag ?? '', size: p.Size ?? 0 });
            }
            if (!out.IsTruncated || out.NextPartNumberMarker === undefined) break;
            marker = out.NextPartNumberMarker;
          }
        } catch (error) {
          if (errorName(error) === 'NoSuchUpload') return [];
          throw error;
        }

        return parts.sort((a, b) => a.partNumber - b.partNumber);
      },

      async complete(key, uploadId, parts) {
        const sorted = [...parts].sort((a, b) => a.partNumber - b.partNumber).map((p) => ({ PartNumber: p.partNumber, ETag: p.etag }));
        try {
          await client.send(
            new CompleteMultipartUploadCommand({ Bucket, Key: key, UploadId: uploadId, MultipartUpload: { Parts: sorted } }),
          );
        } catch (error) {
          const name = errorName(error);
          if (name === 'NoSuchUpload') throw unknownUpload();
          if (name === 'EntityTooSmall') {
            throw new ValidationError(
              'upload.error.partTooSmall',
              `Every part but the last must be at least ${S3_MIN_PART_SIZE} bytes on S3 storage`,
              {
                minPartSize: S3_MIN_PART_SIZE,
              },
            );
          }
          if (name === 'InvalidPart' || name === 'InvalidPartOrder') {
            throw new ValidationError('upload.error.missingParts', 'Some parts were not received or were replaced');
          }
          throw error;
        }
      },

      async abort(key, uploadId) {
        try {
          await client.send(new AbortMultipartUploadCommand({ Bucket, Key: key, UploadId: uploadId }));
        } catch (error) {
          if (errorName(error) === 'NoSuchUpload') return;
          throw error;
        }
      },
    },
  };
}
