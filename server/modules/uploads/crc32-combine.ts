/**
 * zlib's crc32_combine: the CRC32 of A‖B from crc(A), crc(B) and len(B), so completing a chunked
 * upload needs no second pass over the assembled file when the server saw every part.
 */

function gf2MatrixTimes(mat: Uint32Array, vec: number): number {
  let sum = 0;
  let i = 0;
  while (vec !== 0) {
    if (vec & 1) sum ^= mat[i]!;
    vec >>>= 1;
    i++;
  }

  return sum >>> 0;
}

function gf2MatrixSquare(square: Uint32Array, mat: Uint32Array): void {
  for (let n = 0; n < 32; n++) square[n] = gf2MatrixTimes(mat, mat[n]!);
}

export function crc32Combine(crc1: number, crc2: number, len2: number): number {
  if (len2 <= 0) return crc1 >>> 0;
  const even = new Uint32Array(32);
  const odd = new Uint32Array(32);
  // The operator for one zero bit.
  odd[0] = 0xedb88320;
  let row = 1;
  for (let n = 1; n < 32; n++) {
    odd[n] = row;
    row <<= 1;
  }
  gf2MatrixSquare(even, odd); // two zero bits
  gf2MatrixSquare(odd, even); // four zero bits
  let c1 = crc1 >>> 0;
  // Apply len2 zero bytes to crc1 (the first squaring makes one zero byte).
  let len = len2;
  do {
    gf2MatrixSquare(even, odd);
    if (len % 2 === 1) c1 = gf2MatrixTimes(even, c1);
    len = Math.floor(len / 2);
    if (len === 0) break;
    gf2MatrixSquare(odd, even);
    if (len % 2 === 1) c1 = gf2MatrixTimes(odd, c1);
    len = Math.floor(len / 2);
  } while (len !== 0);

  return (c1 ^ crc2) >>> 0;
}

/** Combines parts in order: `[{crc32 (hex), size}]` → hex CRC32 of their concatenation. */
export function combinePartCrcs(parts: ReadonlyArray<{ crc32: string; size: number }>): string {
  let crc = 0;
  for (const part of parts) crc = crc32Combine(crc, parseInt(part.crc32, 16), part.size);

  return crc.toString(16).padStart(8, '0');
}
