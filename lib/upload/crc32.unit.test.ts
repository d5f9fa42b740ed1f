import { describe, expect, it } from 'vitest';
import zlib from 'node:zlib';
import { crc32OfBlob, crc32Update, formatCrc32 } from './crc32';

describe('browser crc32', () => {
  it('matches zlib on known input, in one go and across slices', async () => {
    const bytes = new TextEncoder().encode('The quick brown fox jumps over the lazy dog');
    expect(formatCrc32(crc32Update(0, bytes))).toBe('414fa339');
    const split = crc32Update(crc32Update(0, bytes.subarray(0, 10)), bytes.subarray(10));
    expect(formatCrc32(split)).toBe('414fa339');
    const big = new Uint8Array(9 * 1024 * 1024).map((_, i) => (i * 31) & 0xff);
    expect(await crc32OfBlob(new Blob([big]))).toBe(formatCrc32(zlib.crc32(big)));
  });
});
