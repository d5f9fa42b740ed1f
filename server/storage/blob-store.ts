import type { Readable } from 'node:stream';

/**
 * The one blob storage interface (DECISIONS §1): local disk under DATA_DIR/storage by default,
 * any S3-compatible store when S3_BUCKET is set. Bodies are streams end to end; no implementation
 * may buffer a whole blob in memory.
 */

/** Inclusive byte range, as in HTTP `Range: bytes=start-end`. */
export type ByteRange = { start: number; end: number };

export type BlobStat = { size: number; lastModified: Date };

export type StoredBlob = {
  size: number;
  /** CRC32 of the bytes, 8 lowercase hex digits (DECISIONS §7). */
  crc32: string;
};

export type StoredPart = StoredBlob & { etag: string };

export type MultipartPart = { partNumber: number; etag: string; size: number };

export type PutOptions = {
  contentType?: string;
  /**
   * Refuse bodies longer than this: the write is abandoned (nothing stored) and the promise rejects
   * with PayloadTooLargeError.
   */
  maxBytes?: number;
};

type PutPartOptions = {
  /**
   * Runs once the part's bytes are complete; a rejection fails the put. Local store: before the bytes
   * replace the earlier copy (a rejection keeps it), one commit of the upload at a time, and the last
   * to commit wins, so what `commit` records always describes the bytes kept. S3: after S3 took the
   * part (S3 decides which of concurrent sends it keeps; compare ETags before trusting a record).
   */
  commit?: (part: StoredPart) => Promise<void>;
};

export type MultipartStore = {
  /** Starts a multipart upload for `key`; answers the store's upload id. */
  create(key: string, options?: { contentType?: string }): Promise<string>;
  /**
   * Stores part `partNumber` (1-based) from a stream through the server. A part sent again replaces
   * the earlier one whole, once it has arrived whole: of concurrent sends of one part the last to
   * complete wins, and a send that fails leaves the earlier copy as it was. `expectedSize` is enforced
   * exactly: a shorter or longer body rejects (ValidationError for short, PayloadTooLargeError for
   * long). `offset` is where the part starts in the final blob (`(partNumber - 1) * maxChunkSize`).
   * A part still arriving when the upload is completed or aborted rejects with ConflictError
   * `upload.error.notOpen` and leaves nothing behind.
   */
  putPart(
    key: string,
    uploadId: string,
    part: { partNumber: number; offset: number; expectedSize: number },
    body: Readable,
    options?: PutPartOptions,
  ): Promise<StoredPart>;
  /** A URL the client may PUT the part to directly (S3 presigned), or undefined when the store has none. */
  presignPart(key: string, uploadId: string, partNumber: number, expiresInSeconds: number): Promise<string | undefined>;
  /** The parts the store holds (S3: including those PUT directly to presigned URLs). */
  listParts(key: string, uploadId: string): Promise<MultipartPart[]>;
  /** Assembles the parts (ascending part numbers, all present) into `key`. */
  complete(key: string, uploadId: string, parts: ReadonlyArray<{ partNumber: number; etag: string }>): Promise<void>;
  /** Discards the upload and its parts (parts still arriving are stopped); succeeds when it is already gone. */
  abort(key: string, uploadId: string): Promise<void>;
};

export type BlobStore = {
  readonly kind: 'local' | 's3';
  /** Streams `body` to `key` (replacing it), computing size and CRC32 on the way. */
  put(key: string, body: Readable, options?: PutOptions): Promise<StoredBlob>;
  /** A stream of the blob (or of `range`); undefined when there is no such blob. */
  read(key: string, range?: ByteRange): Promise<Readable | undefined>;
  stat(key: string): Promise<BlobStat | undefined>;
  /** Removes the blob; succeeds when it does not exist. */
  delete(key: string): Promise<void>;
  /** Resolves when the store answers and takes writes (readiness): S3 HeadBucket; local files write, read back and remove a probe. */
  ping(): Promise<void>;
  /**
   * Removes what a crashed writer can leave outside any database record (temporary files, multipart
   * uploads whose session row was never written) once older than `olderThanMs`; answers how many.
   * S3: nothing here — a bucket lifecycle rule (AbortIncompleteMultipartUpload) does it.
   */
  sweepAbandoned(olderThanMs: number): Promise<number>;
  multipart: MultipartStore;
};
