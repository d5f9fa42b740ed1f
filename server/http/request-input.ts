import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type { Context, MiddlewareHandler } from 'hono';
import { PayloadTooLargeError, ValidationError } from '@/server/errors';
import type { AppEnv } from './context';
import { assertSafeJson, NulCharacterError } from './hostile-input';

/*
 * The shared request layer in front of every declared route's validators (server/http/route.ts):
 * the body limit, from Content-Length before anything else and while the body is read, and the
 * hostile-input checks of query values, path parameters and JSON and form bodies. A body that a
 * validator will parse is read here, bounded, and handed on as a buffered request, so neither
 * zod-openapi's validators nor @hono/node-server's body readers ever see more than the limit.
 */

/**
 * What a route declares about its body: the most bytes it may have, or `'stream'` (the handler streams it
 * and enforces its own limits). A number on a body no validator parses (binary): the handler streams it
 * (requestBodyStream), cut with 413 at the limit; a declared length above it is refused before.
 */
export type BodyLimit = number | 'stream';

/** The limit of every route that declares none: JSON and form bodies are small. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** 413 `request.error.payloadTooLarge` with the limit in `details.maxBytes`. */
export class BodyTooLargeError extends PayloadTooLargeError {
  constructor(limit: number) {
    super(`The request body is larger than the ${limit} bytes this operation accepts`, 'request.error.payloadTooLarge', {
      maxBytes: limit,
    });
  }
}

/** Refuses a body whose declared length is above `limit` before a byte of it is read. */
export function declaredLengthLimit(limit: number): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const declared = c.req.header('content-length');
    if (declared !== undefined && /^\d+$/.test(declared) && Number(declared) > limit) throw new BodyTooLargeError(limit);
    await next();
  };
}

/** The kinds of body the route's validators parse: JSON and form media types with a zod schema. */
export type ParsedBodyTypes = { json: boolean; form: string[] };

/** `application/json` and `application/<anything>+json`. */
export const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i;
const FORM_MEDIA_TYPES = ['multipart/form-data', 'application/x-www-form-urlencoded'];

/** The media type of a Content-Type header, lower case, without parameters. */
export function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

/** What the request's body is, as far as a validator of this route would parse it (the same test as hono's validator). */
function parsedKind(contentType: string | undefined, types: ParsedBodyTypes): 'json' | 'form' | undefined {
  const mediaType = mediaTypeOf(contentType);
  if (types.json && JSON_MEDIA_TYPE.test(mediaType)) return 'json';
  if (FORM_MEDIA_TYPES.includes(mediaType) && types.form.includes(mediaType)) return 'form';

  return undefined;
}

/**
 * NUL in query values and keys and in path parameters, then the body: read within `limit` when a
 * validator will parse it, JSON checked for depth and NUL (keys and values at any depth), form fields
 * for NUL. Runs after authentication, right before the route's validators.
 */
export function requestInputGuard(options: {
  limit: BodyLimit;
  parsedBody: ParsedBodyTypes;
  bodyRequired?: boolean;
}): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    for (const [key, values] of Object.entries(c.req.queries())) {
      if (key.includes('\u0000') || values.some((v) => v.includes('\u0000'))) throw new NulCharacterError('query', key);
    }
    for (const [key, value] of Object.entries(c.req.param() as Record<string, string>)) {
      if (value.includes('\u0000')) throw new NulCharacterError('param', key);
    }
    // A required body that is not there at all: the validators would read it as `{}` (and an update body of optional
    // attributes would pass). A body without a media type is the media-type gate's 415.
    if (options.bodyRequired && c.req.header('content-type') === undefined && !hasBody(c)) {
      throw new ValidationError('request.error.invalid', 'This operation needs a request body', {
        target: 'json',
        issues: [{ path: '', message: 'Required' }],
      });
    }
    const kind = options.limit === 'stream' ? undefined : parsedKind(c.req.header('content-type'), options.parsedBody);
    if (kind && options.limit !== 'stream') await bufferAndCheckBody(c, kind, options.limit);
    else if (typeof options.limit === 'number') c.set('bodyLimit', options.limit);
    await next();
  };
}

/** Whether the request says it has a body: a length above 0, or chunked. */
function hasBody(c: Context<AppEnv>): boolean {
  const length = c.req.header('content-length');

  return (length !== undefined && length !== '0') || c.req.header('transfer-encoding') !== undefined;
}

async function bufferAndCheckBody(c: Context<AppEnv>, kind: 'json' | 'form', limit: number): Promise<void> {
  const bytes = await readBodyWithin(c, limit);
  const raw = c.req.raw;
  // The validators read this buffered copy; the original's body (the socket) is never read past the limit.
  c.req.raw = new Request(raw.url, { method: raw.method, headers: raw.headers, body: bytes });
  if (kind === 'json') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      return; // malformed: the validator answers its 400
    }
    assertSafeJson('json', parsed);
    // The validator reads the body through c.req.json(): it gets this parse rather than decoding and parsing it again.
    const json = Promise.resolve(parsed);
    c.req.json = (() => json) as typeof c.req.json;

    return;
  }
  let form: FormData;
  try {
    form = await new Response(bytes, { headers: { 'content-type': raw.headers.get('content-type') ?? '' } }).formData();
  } catch {
    return; // malformed: the validator answers its 400
  }
  for (const [key, value] of form.entries()) {
    const text = typeof value === 'string' ? value : value.name;
    if (key.includes('\u0000') || text.includes('\u0000')) throw new NulCharacterError('form', key);
  }
}

/** The whole body, refused with 413 as soon as it passes `limit` (a chunked body has no length to check first). */
export async function readBodyWithin(c: Context<AppEnv>, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  const incoming = c.env?.incoming;
  if (incoming && !incoming.readableDidRead) return readIncoming(incoming, limit);
  const body = c.req.raw.body;
  if (!body) return new Uint8Array(new ArrayBuffer(0));
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw new BodyTooLargeError(limit);
    }
    chunks.push(value);
  }

  return Buffer.concat(chunks, size);
}

/**
 * Reads the raw Node request (no web-stream round trip). Past the limit it stops and pauses the
 * request: what is left is the Node listener's to drain or close (server/http/node-listener.ts).
 */
function readIncoming(incoming: IncomingMessage, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onAbort);
      incoming.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        incoming.pause();
        reject(new BodyTooLargeError(limit));

        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks, size));
    };
    // The client went away mid-body: nobody reads the answer, but it must not be a 500.
    const onAbort = () => {
      cleanup();
      reject(new ValidationError('request.error.incompleteBody', 'The request body ended before its declared end'));
    };
    const onClose = () => {
      if (!incoming.readableEnded) onAbort();
    };
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', onAbort);
    incoming.on('close', onClose);
  });
}

/**
 * `body` cut with 413 as soon as more than `limit` bytes passed (a streamed body of a route with a numeric
 * limit). Lazy: nothing is read before the consumer reads, so the 413 never fires before the handler has
 * attached its reader (an early error would be nobody's).
 */
export function limitedBody(body: Readable, limit: number): Readable {
  let size = 0;
  // Paused first, so the 'data' listener below does not start the flow.
  body.pause();
  const limited = new Readable({
    read() {
      body.resume();
    },
  });
  const onData = (chunk: Buffer) => {
    size += chunk.length;
    if (size > limit) {
      // What is left unread is the Node listener's to drain or close, as after readIncoming.
      body.pause();
      body.off('data', onData);
      limited.destroy(new BodyTooLargeError(limit));

      return;
    }
    if (!limited.push(chunk)) body.pause();
  };
  body.on('data', onData);
  body.once('end', () => limited.push(null));
  body.once('error', (err) => limited.destroy(err));

  return limited;
}
