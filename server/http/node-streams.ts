import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { Context } from 'hono';
import type { AppEnv } from './context';
import { limitedBody } from './request-input';

/*
 * Large bodies (uploads, downloads) go between the socket and storage as Node streams. Under
 * @hono/node-server the raw IncomingMessage/ServerResponse are used directly: the web ReadableStream
 * round trip (`c.req.raw.body` + `Readable.fromWeb`, `Readable.toWeb` for responses) costs a promise per
 * chunk and halved upload throughput (docs/benchmarks.md). Under `app.request` (tests) only the web
 * objects exist, so both helpers fall back to them.
 */

/**
 * The request body as a Node stream, never buffered; undefined when there is none. On a route with a
 * numeric body limit the stream fails with 413 past it.
 */
export function requestBodyStream(c: Context<AppEnv>): Readable | undefined {
  const body = rawBodyStream(c);
  const limit = c.var.bodyLimit;

  return body && limit !== undefined ? limitedBody(body, limit) : body;
}

function rawBodyStream(c: Context<AppEnv>): Readable | undefined {
  const incoming = c.env?.incoming;
  if (incoming && !incoming.readableDidRead && !incoming.destroyed) {
    const length = incoming.headers['content-length'];
    const chunked = incoming.headers['transfer-encoding'] !== undefined;

    return chunked || (length !== undefined && length !== '0') ? incoming : undefined;
  }
  const body = c.req.raw.body;

  return body ? Readable.fromWeb(body as unknown as WebReadableStream<Uint8Array>) : undefined;
}

const ALREADY_SENT_HEADERS = RESPONSE_ALREADY_SENT.headers;

/** Answers with `body` streamed straight to the socket (or as a web stream when there is no socket). */
export function streamResponse(c: Context<AppEnv>, input: { status: number; headers: Record<string, string>; body: Readable }): Response {
  const outgoing = c.env?.outgoing;
  if (!outgoing || outgoing.headersSent) {
    return c.body(Readable.toWeb(input.body) as unknown as ReadableStream, input.status as 200, input.headers);
  }
  outgoing.writeHead(input.status, { 'X-Request-Id': c.var.requestId, ...input.headers });
  // A client that goes away mid-body ends the pipeline with an error: nothing to answer any more.
  pipeline(input.body, outgoing).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'ERR_STREAM_PREMATURE_CLOSE') c.var.log.warn({ err }, 'download stream failed');
  });

  // The marker header tells @hono/node-server the response is written (the status is for the access log).
  // Its fast path for its own lightweight Response ignores the marker; reading `body` makes this a full
  // Response, which it honours (node-listener.api.test.ts fails if that ever changes).
  const sent = new Response(null, { status: input.status, headers: ALREADY_SENT_HEADERS });
  void sent.body;

  return sent;
}
