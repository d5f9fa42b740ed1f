import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { Context } from 'hono';
import type { AppEnv } from './context';

/**
 * The request body as a Node stream, never buffered. Under @hono/node-server the raw IncomingMessage
 * is handed over as it is while nothing has read it yet: going through the web ReadableStream that
 * `c.req.raw.body` builds and back (`Readable.fromWeb`) costs a promise per chunk and halved upload
 * throughput (docs/benchmarks.md). Under `app.request` (tests) there is only the web body.
 */
export function requestBodyStream(c: Context<AppEnv>): Readable | undefined {
  const incoming = c.env?.incoming;
  if (incoming && !incoming.readableDidRead && !incoming.destroyed) {
    const length = incoming.headers['content-length'];
    const chunked = incoming.headers['transfer-encoding'] !== undefined;

    return chunked || (length !== undefined && length !== '0') ? incoming : undefined;
  }
  const body = c.req.raw.body;

  return body ? Readable.fromWeb(body as unknown as WebReadableStream<Uint8Array>) : undefined;
}
