import { Transform, type TransformCallback } from 'node:stream';
import zlib from 'node:zlib';

/** CRC32 as the API writes it: 8 lowercase hex digits. */
export function formatCrc32(value: number): string {
  return (value >>> 0).toString(16).padStart(8, '0');
}

/**
 * A pass-through that counts bytes and folds them into a CRC32 (zlib.crc32, Node ≥ 20.15), failing
 * the stream as soon as more than `maxBytes` pass.
 */
export class MeasuringStream extends Transform {
  size = 0;
  private crc = 0;

  constructor(
    private readonly maxBytes: number = Number.POSITIVE_INFINITY,
    private readonly onTooLarge: () => Error = () => new Error('too large'),
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    this.size += chunk.length;
    if (this.size > this.maxBytes) {
      callback(this.onTooLarge());
      return;
    }
    this.crc = zlib.crc32(chunk, this.crc);
    callback(null, chunk);
  }

  get crc32(): string {
    return formatCrc32(this.crc);
  }
}
