import type { Readable } from 'node:stream';
import { imageSize } from 'image-size';
import type { BlobStore } from '@/server/storage/blob-store';
import { extensionOf } from './uploads.rules';

/**
 * Width and height read from a stored blob when the client gives none (spec 2 "server recalculates
 * if missing"). Only ranges are read: the head of an image, the boxes of an MP4/MOV (whose `moov`
 * may sit at the end), the head of a WebM. Unknown or damaged media answer undefined, never an error.
 */
export type Dimensions = { width: number; height: number };

const IMAGE_HEAD = 64 * 1024;
const IMAGE_HEAD_RETRY = 1024 * 1024; // JPEGs with large EXIF blocks put the frame header later
const MAX_MOOV = 32 * 1024 * 1024;
const WEBM_HEAD = 1024 * 1024;

type RangeReader = (start: number, length: number) => Promise<Buffer>;

export async function detectDimensions(
  storage: BlobStore,
  key: string,
  input: { name: string; contentType: string; size: number },
): Promise<Dimensions | undefined> {
  const read: RangeReader = async (start, length) => {
    const end = Math.min(input.size, start + length) - 1;
    if (end < start) return Buffer.alloc(0);
    const stream = await storage.read(key, { start, end });

    return stream ? collect(stream) : Buffer.alloc(0);
  };
  try {
    const kind = mediaKind(input.name, input.contentType);
    if (kind === 'image') {
      return (
        imageDimensions(await read(0, IMAGE_HEAD)) ??
        (input.size > IMAGE_HEAD ? imageDimensions(await read(0, IMAGE_HEAD_RETRY)) : undefined)
      );
    }
    if (kind === 'mp4') return await mp4Dimensions(read, input.size);
    if (kind === 'webm') return webmDimensions(await read(0, WEBM_HEAD));
  } catch {
    // A damaged file keeps no dimensions; the upload itself still succeeds.
  }

  return undefined;
}

function mediaKind(name: string, contentType: string): 'image' | 'mp4' | 'webm' | undefined {
  const ext = extensionOf(name);
  if (['mp4', 'mov', 'm4v'].includes(ext) || contentType === 'video/mp4' || contentType === 'video/quicktime') return 'mp4';
  if (ext === 'webm' || contentType === 'video/webm') return 'webm';
  if (['png', 'jpg', 'jpeg', 'gif', 'svg', 'webp'].includes(ext) || contentType.startsWith('image/')) return 'image';

  return undefined;
}

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);

  return Buffer.concat(chunks);
}

/** PNG, JPEG, GIF, WebP, SVG and the rest image-size knows; EXIF orientations 5–8 swap the sides. */
export function imageDimensions(head: Buffer): Dimensions | undefined {
  try {
    const result = imageSize(head);
    if (!result.width || !result.height) return undefined;
    const rotated = (result.orientation ?? 1) >= 5;

    return rotated ? { width: result.height, height: result.width } : { width: result.width, height: result.height };
  } catch {
    return undefined;
  }
}

// --- MP4 / QuickTime: moov > trak > tkhd -----------------------------------------------------------

const CONTAINERS = new Set(['moov', 'trak', 'mdia', 'edts']);

/** Walks the top-level boxes by range reads, loads `moov` and answers the first track with a picture. */
export async function mp4Dimensions(read: RangeReader, size: number): Promise<Dimensions | undefined> {
  let offset = 0;
  while (offset + 8 <= size) {
    const header = await read(offset, 16);
    if (header.length < 8) return undefined;
    let boxSize = header.readUInt32BE(0);
    const type = header.toString('latin1', 4, 8);
    let headerSize = 8;
    if (boxSize === 1) {
      if (header.length < 16) return undefined;
      boxSize = Number(header.readBigUInt64BE(8));
      headerSize = 16;
    } else if (boxSize === 0) {
      boxSize = size - offset; // to the end of the file
    }
    if (boxSize < headerSize) return undefined;
    if (type === 'moov') {
      if (boxSize > MAX_MOOV) return undefined;

      return tkhdDimensions(await read(offset + headerSize, boxSize - headerSize));
    }
    offset += boxSize;
  }

  return undefined;
}

/** Searches the children of a `moov` payload for `trak/tkhd` boxes with non-zero width and height. */
export function tkhdDimensions(payload: Buffer): Dimensions | undefined {
  let offset = 0;
  while (offset + 8 <= payload.length) {
    let boxSize = payload.readUInt32BE(offset);
    const type = payload.toString('latin1', offset + 4, offset + 8);
    let headerSize = 8;
    if (boxSize === 1 && offset + 16 <= payload.length) {
      boxSize = Number(payload.readBigUInt64BE(offset + 8));
      headerSize = 16;
    } else if (boxSize === 0) {
      boxSize = payload.length - offset;
    }
    if (boxSize < headerSize || offset + boxSize > payload.length) return undefined;
    const body = payload.subarray(offset + headerSize, offset + boxSize);
    if (type === 'trak' || CONTAINERS.has(type)) {
      const found = tkhdDimensions(body);
      if (found) return found;
    } else if (type === 'tkhd') {
      const found = parseTkhd(body);
      if (found) return found;
    }
    offset += boxSize;
  }

  return undefined;
}

function parseTkhd(body: Buffer): Dimensions | undefined {
  const version = body[0];
  // version/flags 4, times and ids (v0: 20 bytes, v1: 32), reserved 8, layer/group/volume/reserved 8, matrix 36
  const matrixAt = 4 + (version === 1 ? 32 : 20) + 8 + 8;
  const sizeAt = matrixAt + 36;
  if (body.length < sizeAt + 8) return undefined;
  const width = Math.round(body.readUInt32BE(sizeAt) / 65536);
  const height = Math.round(body.readUInt32BE(sizeAt + 4) / 65536);
  if (width === 0 || height === 0) return undefined; // an audio track
  // A 90°/270° rotation matrix (a = d = 0) shows the picture on its side: report what is displayed.
  const a = body.readInt32BE(matrixAt);
  const b = body.readInt32BE(matrixAt + 4);
  const rotated = a === 0 && Math.abs(b) === 65536;

  return rotated ? { width: height, height: width } : { width, height };
}

// --- WebM / Matroska: Segment > Tracks > TrackEntry > Video > PixelWidth/PixelHeight ---------------

const EBML_MASTERS = new Set([0x18538067 /* Segment */, 0x1654ae6b /* Tracks */, 0xae /* TrackEntry */, 0xe0 /* Video */]);
const CLUSTER = 0x1f43b675;
const PIXEL_WIDTH = 0xb0;
const PIXEL_HEIGHT = 0xba;

/** Reads an EBML variable-length integer; `keepMarker` for element ids. */
function readVint(buf: Buffer, offset: number, keepMarker: boolean): { value: number; length: number; unknown: boolean } | undefined {
  const first = buf[offset];
  if (first === undefined || first === 0) return undefined;
  let length = 1;
  while (length <= 8 && !(first & (0x80 >> (length - 1)))) length++;
  if (length > 8 || offset + length > buf.length) return undefined;
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let i = 1; i < length; i++) {
    const byte = buf[offset + i]!;
    value = value * 256 + byte;
    if (byte !== 0xff) allOnes = false;
  }

  return { value, length, unknown: !keepMarker && allOnes };
}

export function webmDimensions(head: Buffer): Dimensions | undefined {
  let width: number | undefined;
  let height: number | undefined;
  const walk = (start: number, end: number, depth: number): boolean => {
    let offset = start;
    while (offset < end) {
      const id = readVint(head, offset, true);
      if (!id) return false;
      const size = readVint(head, offset + id.length, false);
      if (!size) return false;
      const dataStart = offset + id.length + size.length;
      const dataEnd = size.unknown ? end : Math.min(end, dataStart + size.value);
      if (id.value === CLUSTER) return false; // media data: the track headers are behind us
      if (EBML_MASTERS.has(id.value) && depth < 6) {
        if (walk(dataStart, dataEnd, depth + 1) && width && height) return true;
      } else if (id.value === PIXEL_WIDTH || id.value === PIXEL_HEIGHT) {
        let v = 0;
        for (let i = dataStart; i < dataEnd; i++) v = v * 256 + head[i]!;
        if (id.value === PIXEL_WIDTH) width = v;
        else height = v;
        if (width && height) return true;
      }
      if (size.unknown) return false;
      offset = dataStart + size.value;
    }

    return Boolean(width && height);
  };
  walk(0, head.length, 0);

  return width && height ? { width, height } : undefined;
}
