/** CRC32 (IEEE, as zlib) of a Blob in the browser, read in slices; 8 lowercase hex digits like the API's `crcCheckSum`. */
const TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }

  return table;
})();

export function crc32Update(crc: number, bytes: Uint8Array): number {
  let c = ~crc >>> 0;
  for (let i = 0; i < bytes.length; i++) c = TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);

  return ~c >>> 0;
}

export function formatCrc32(value: number): string {
  return (value >>> 0).toString(16).padStart(8, '0');
}

const SLICE = 4 * 1024 * 1024;

export async function crc32OfBlob(blob: Blob, signal?: AbortSignal): Promise<string> {
  let crc = 0;
  for (let offset = 0; offset < blob.size; offset += SLICE) {
    if (signal?.aborted) throw new DOMException('Aborted', 'AbortError');
    crc = crc32Update(crc, new Uint8Array(await blob.slice(offset, offset + SLICE).arrayBuffer()));
  }

  return formatCrc32(crc);
}
