import { describe, expect, it } from 'vitest';
import { imageDimensions, mp4Dimensions, tkhdDimensions, webmDimensions } from './media-dimensions';

function box(type: string, ...children: Buffer[]): Buffer {
  const body = Buffer.concat(children);
  const header = Buffer.alloc(8);
  header.writeUInt32BE(8 + body.length, 0);
  header.write(type, 4, 'latin1');

  return Buffer.concat([header, body]);
}

/** A version-0 `tkhd` body: flags, times, ids, matrix, then 16.16 width and height. */
function tkhd(width: number, height: number, options: { version?: 0 | 1; rotate90?: boolean } = {}): Buffer {
  const version = options.version ?? 0;
  const times = version === 1 ? 32 : 20;
  const body = Buffer.alloc(4 + times + 8 + 8 + 36 + 8);
  body[0] = version;
  const matrix = 4 + times + 16;
  const [a, b, c, d] = options.rotate90 ? [0, 65536, -65536, 0] : [65536, 0, 0, 65536];
  body.writeInt32BE(a, matrix);
  body.writeInt32BE(b, matrix + 4);
  body.writeInt32BE(c, matrix + 12);
  body.writeInt32BE(d, matrix + 16);
  body.writeUInt32BE(width * 65536, matrix + 36);
  body.writeUInt32BE(height * 65536, matrix + 40);

  return box('tkhd', body);
}

function reader(file: Buffer) {
  return async (start: number, length: number) => file.subarray(start, start + length);
}

describe('MP4/MOV', () => {
  it('finds the video track of a moov box placed after the media data', async () => {
    const audio = box('trak', tkhd(0, 0));
    const video = box('trak', tkhd(1920, 1080));
    const file = Buffer.concat([
      box('ftyp', Buffer.from('isom0000')),
      box('mdat', Buffer.alloc(5000)),
      box('moov', box('mvhd', Buffer.alloc(100)), audio, video),
    ]);
    expect(await mp4Dimensions(reader(file), file.length)).toEqual({ width: 1920, height: 1080 });
  });

  it('reads version-1 headers and reports a 90° rotation as displayed', () => {
    expect(tkhdDimensions(box('trak', tkhd(1280, 720, { version: 1 })))).toEqual({ width: 1280, height: 720 });
    expect(tkhdDimensions(box('trak', tkhd(1920, 1080, { rotate90: true })))).toEqual({ width: 1080, height: 1920 });
  });

  it('answers undefined for files without a picture or with broken boxes', async () => {
    const noVideo = Buffer.concat([box('ftyp', Buffer.alloc(8)), box('moov', box('trak', tkhd(0, 0)))]);
    expect(await mp4Dimensions(reader(noVideo), noVideo.length)).toBeUndefined();
    const broken = Buffer.from([0, 0, 0, 3, 0x66, 0x74, 0x79, 0x70]);
    expect(await mp4Dimensions(reader(broken), broken.length)).toBeUndefined();
  });
});

/** EBML element: id bytes, a 1-byte or unknown size, data. */
function el(id: number[], data: Buffer, unknownSize = false): Buffer {
  if (unknownSize) return Buffer.concat([Buffer.from(id), Buffer.from([0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]), data]);
  const size = data.length < 127 ? Buffer.from([0x80 | data.length]) : Buffer.from([0x40 | (data.length >> 8), data.length & 0xff]);

  return Buffer.concat([Buffer.from(id), size, data]);
}
const uint = (v: number) => Buffer.from([v >> 8, v & 0xff]);

describe('WebM', () => {
  it('reads PixelWidth and PixelHeight of the video track', () => {
    const ebmlHeader = el([0x1a, 0x45, 0xdf, 0xa3], el([0x42, 0x82], Buffer.from('webm')));
    const audioTrack = el([0xae], el([0xe1], el([0xb5], Buffer.alloc(4))));
    const videoTrack = el(
      [0xae],
      Buffer.concat([el([0xd7], Buffer.from([1])), el([0xe0], Buffer.concat([el([0xb0], uint(1280)), el([0xba], uint(720))]))]),
    );
    const tracks = el([0x16, 0x54, 0xae, 0x6b], Buffer.concat([audioTrack, videoTrack]));
    const info = el([0x15, 0x49, 0xa9, 0x66], Buffer.alloc(20));
    const cluster = el([0x1f, 0x43, 0xb6, 0x75], Buffer.alloc(30));
    const file = Buffer.concat([ebmlHeader, el([0x18, 0x53, 0x80, 0x67], Buffer.concat([info, tracks, cluster]), true)]);
    expect(webmDimensions(file)).toEqual({ width: 1280, height: 720 });
  });

  it('stops at the first cluster and answers undefined without a video track', () => {
    const file = Buffer.concat([
      el([0x1a, 0x45, 0xdf, 0xa3], Buffer.alloc(4)),
      el([0x18, 0x53, 0x80, 0x67], el([0x1f, 0x43, 0xb6, 0x75], Buffer.alloc(10)), true),
    ]);
    expect(webmDimensions(file)).toBeUndefined();
    expect(webmDimensions(Buffer.from([0, 0, 0]))).toBeUndefined();
  });
});

describe('images', () => {
  it('reads the heads of PNG and SVG images', () => {
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
      Buffer.from('IHDR'),
      uint32(300),
      uint32(200),
      Buffer.alloc(9),
    ]);
    expect(imageDimensions(png)).toEqual({ width: 300, height: 200 });
    expect(imageDimensions(Buffer.from('not an image'))).toBeUndefined();
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40"></svg>');
    expect(imageDimensions(svg)).toEqual({ width: 120, height: 40 });
  });
});

function uint32(v: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(v);

  return b;
}
