import { Transform, type Readable, type TransformCallback } from 'node:stream';

/*
 * What an image the service stores is (issue 27 §4.6): what its first bytes show, never the type a client declares.
 * Every route that stores an image — a device's screenshot, a file's thumbnail (its own PUT and the `previews` part of
 * a simple upload), a user's profile picture — takes it through this rule, and a file's stored type (content-types.ts)
 * and a thumbnail's served type read the same signatures.
 */

/** The image types the service stores; a route may accept fewer (screenshots: no GIF). */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];

/** How many leading bytes tell the types apart (WebP: `RIFF`, a size, `WEBP`). */
export const IMAGE_SIGNATURE_BYTES = 12;

const ascii = (head: Buffer, offset: number, text: string) =>
  head.length >= offset + text.length && head.toString('latin1', offset, offset + text.length) === text;

/** The magic bytes of each type. */
export const IMAGE_SIGNATURES: Readonly<Record<ImageType, (head: Buffer) => boolean>> = {
  'image/png': (h) => h.length >= 8 && h.readUInt32BE(0) === 0x89504e47 && h.readUInt32BE(4) === 0x0d0a1a0a,
  'image/jpeg': (h) => h.length >= 3 && h[0] === 0xff && h[1] === 0xd8 && h[2] === 0xff,
  'image/gif': (h) => ascii(h, 0, 'GIF87a') || ascii(h, 0, 'GIF89a'),
  'image/webp': (h) => ascii(h, 0, 'RIFF') && ascii(h, 8, 'WEBP'),
};

/** The image type of bytes starting with `head`, if they are one. */
export function sniffImageType(head: Buffer): ImageType | undefined {
  return IMAGE_TYPES.find((type) => IMAGE_SIGNATURES[type](head));
}

/** The media type of a Content-Type value, lower case, without parameters. */
const mediaType = (contentType: string) => contentType.split(';')[0]!.trim().toLowerCase();

export type ImageRule = {
  /** The types the route stores. */
  accepted: readonly ImageType[];
  /** The type the client declared, when the route takes one: the bytes must be that type. */
  declared?: string;
};

/**
 * The rule: the bytes must be an image of an accepted type, and of the declared type when one is declared. Answers
 * that type, or undefined when the image is refused (415).
 */
export function acceptedImageType(head: Buffer, rule: ImageRule): ImageType | undefined {
  const sniffed = sniffImageType(head);
  if (!sniffed || !rule.accepted.includes(sniffed)) return undefined;
  if (rule.declared !== undefined && mediaType(rule.declared) !== sniffed) return undefined;

  return sniffed;
}

/** A declared type the route accepts at all (checked before a byte is read). */
export function isAcceptedImageType(declared: string | undefined, accepted: readonly ImageType[]): declared is string {
  return declared !== undefined && (accepted as readonly string[]).includes(mediaType(declared));
}

export type ImageStreamRule = ImageRule & {
  /** The error of bytes the rule refuses (a 415). */
  refused: (sniffed: ImageType | undefined) => Error;
  /** The error of an empty body. */
  empty: () => Error;
};

/**
 * `body` passed through once its first bytes pass the rule; otherwise the stream fails with the rule's error before
 * a byte reaches its consumer (storage: nothing is stored). The body's own failure (a limit, a client gone) fails it too.
 */
export function checkedImageStream(body: Readable, rule: ImageStreamRule): Readable {
  const check = new ImageCheck(rule);
  body.once('error', (err) => check.destroy(err));

  return body.pipe(check);
}

class ImageCheck extends Transform {
  private head: Buffer[] = [];
  private headSize = 0;
  private checked = false;

  constructor(private readonly rule: ImageStreamRule) {
    super();
  }

  private verdict(): Error | undefined {
    this.checked = true;
    const head = Buffer.concat(this.head);
    this.head = [];
    if (head.length === 0) return this.rule.empty();
    if (!acceptedImageType(head, this.rule)) return this.rule.refused(sniffImageType(head));
    this.push(head);

    return undefined;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    if (this.checked) return callback(null, chunk);
    this.head.push(chunk);
    this.headSize += chunk.length;
    callback(this.headSize >= IMAGE_SIGNATURE_BYTES ? this.verdict() : undefined);
  }

  override _flush(callback: TransformCallback) {
    callback(this.checked ? undefined : this.verdict());
  }
}
