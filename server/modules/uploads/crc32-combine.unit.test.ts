import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { formatCrc32 } from '@/server/storage/crc32';
import { combinePartCrcs, crc32Combine } from './crc32-combine';

describe('crc32Combine', () => {
  it('equals the CRC32 of the concatenation', () => {
    const a = Buffer.from('hello, ');
    const b = Buffer.from('world and some more bytes');
    expect(crc32Combine(zlib.crc32(a), zlib.crc32(b), b.length)).toBe(zlib.crc32(Buffer.concat([a, b])));
  });

  it('combines many parts of different sizes, including large ones', () => {
    const parts = [Buffer.alloc(70_000, 7), Buffer.alloc(1, 1), Buffer.from(Array.from({ length: 4099 }, (_, i) => i % 251))];
    const expected = formatCrc32(zlib.crc32(Buffer.concat(parts)));
    expect(combinePartCrcs(parts.map((p) => ({ crc32: formatCrc32(zlib.crc32(p)), size: p.length })))).toBe(expected);
  });

  it('handles lengths beyond 2^31', () => {
    // crc of 2^31+5 zero bytes appended to 'x' equals combining with the crc of that zero run, checked
    // against a direct composition of smaller combines.
    const x = zlib.crc32(Buffer.from('x'));
    const zeros = (n: number) => zlib.crc32(Buffer.alloc(n));
    const half = crc32Combine(crc32Combine(x, zeros(3), 3), zeros(4), 4);
    expect(half).toBe(crc32Combine(x, zeros(7), 7));
    const big = 2 ** 31 + 5;
    expect(crc32Combine(x, 0, big)).toBe(crc32Combine(crc32Combine(x, 0, 2 ** 31), 0, 5));
  });
});
