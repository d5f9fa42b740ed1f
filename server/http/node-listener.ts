import type { IncomingMessage, ServerResponse } from 'node:http';
import { getRequestListener, type HttpBindings } from '@hono/node-server';

/*
 * The API's Node request listener (server/main.ts; `t.listen()` in tests): @hono/node-server's, plus
 * what happens to a request body the app did not read. Early answers (401, 404 of an unknown folder,
 * 413) leave the client still sending. Closing the socket then makes the kernel answer the bytes still
 * arriving with a reset, and many clients (those that write the whole body before reading: Python's
 * http.client, most upload scripts) report EPIPE/ECONNRESET instead of the answer waiting for them.
 *
 * So before the answer is written, up to DRAIN_BYTES of the rest are read and dropped (the connection
 * stays usable when the body ends within them). A longer rest gets `Connection: close` and a
 * lingering close: the answer and a FIN go out, and what the client still sends is read and dropped
 * for a while (LINGER_*) before the socket is closed, as nginx's lingering_close does.
 */

const MiB = 1024 * 1024;
/** Unread body bytes dropped before answering, and for how long at most. */
export const DRAIN_BYTES = 8 * MiB;
const DRAIN_MS = 2_000;
/** After a `Connection: close` answer: bytes, total time and idle time the client may still send before the socket closes. */
const LINGER_BYTES = 64 * MiB;
const LINGER_MS = 10_000;
const LINGER_IDLE_MS = 2_000;

export type ApiFetch = (request: Request, env: HttpBindings) => Response | Promise<Response>;

export function createNodeListener(fetch: ApiFetch): (incoming: IncomingMessage, outgoing: ServerResponse) => Promise<void> {
  const listener = getRequestListener(async (request, env) => {
    const bindings = env as HttpBindings;
    const response = await fetch(request, bindings);
    const { incoming, outgoing } = bindings;
    // `complete`: the whole body has arrived (read or not); a streamed answer has already gone out.
    if (!incoming.complete && !incoming.destroyed && !outgoing.headersSent) await settleUnreadBody(incoming, outgoing);

    return response;
  });

  return (incoming, outgoing) => {
    watchForHangUp(incoming, outgoing);

    return listener(incoming, outgoing);
  };
}

/** Requests whose client closed the connection before their whole body had arrived. */
const hungUp = new WeakSet<IncomingMessage>();

/**
 * Whether the client hung up mid-request (issue 27 §4.10): whatever failed after that (a body cut off, a store
 * write) is the client's doing, not the server's. The error handler logs such a request as a client abort (499).
 */
export function clientHungUp(incoming: IncomingMessage | undefined): boolean {
  return incoming !== undefined && hungUp.has(incoming);
}

/**
 * Marks the request when the peer ends (FIN) or resets the connection while its body is still arriving. Both come
 * before Node aborts the request, so the mark is set before any reader of the body fails. Bodiless requests
 * (most of them) are not watched.
 */
function watchForHangUp(incoming: IncomingMessage, outgoing: ServerResponse): void {
  if (incoming.headers['content-length'] === undefined && incoming.headers['transfer-encoding'] === undefined) return;
  const socket = incoming.socket;
  const mark = () => {
    if (!incoming.complete) hungUp.add(incoming);
  };
  socket.once('end', mark);
  socket.once('error', mark);
  outgoing.once('close', () => {
    socket.off('end', mark);
    socket.off('error', mark);
  });
}

const ignore = () => undefined;

async function settleUnreadBody(incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
  // A consumer that gave up (a multipart parser after an error) must not receive the rest.
  incoming.unpipe();
  // A client that resets the connection while its bytes are dropped is no error of this request.
  incoming.on('error', ignore);
  const declared = Number(incoming.headers['content-length']);
  const mayEndSoon = !(declared > DRAIN_BYTES);
  if (mayEndSoon && (await drop(incoming, DRAIN_BYTES, DRAIN_MS))) return;
  outgoing.setHeader('Connection', 'close');
  lingerAfterAnswer(incoming);
}

/** Reads and drops up to `maxBytes` within `ms`; true when the body ended. */
function drop(incoming: IncomingMessage, maxBytes: number, ms: number): Promise<boolean> {
  if (incoming.readableEnded) return Promise.resolve(true);

  return new Promise((resolve) => {
    let dropped = 0;
    const finish = (ended: boolean) => {
      clearTimeout(timer);
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('close', onClose);
      if (!ended) incoming.pause();
      resolve(ended);
    };
    const onData = (chunk: Buffer) => {
      dropped += chunk.length;
      if (dropped > maxBytes) finish(false);
    };
    const onEnd = () => finish(true);
    const onClose = () => finish(incoming.readableEnded);
    const timer = setTimeout(() => finish(false), ms);
    timer.unref();
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('close', onClose);
    incoming.resume();
  });
}

/**
 * Node ends a `Connection: close` answer with `socket.destroySoon()`: FIN, then the descriptor is
 * closed as soon as the answer is written, and the client's further bytes meet a reset. For this one
 * socket it instead keeps reading (and dropping) until the client closes or a LINGER_* bound is reached.
 */
function lingerAfterAnswer(incoming: IncomingMessage): void {
  const socket = incoming.socket;
  let lingering = false;
  socket.destroySoon = () => {
    if (lingering) return;
    lingering = true;
    socket.end();
    let dropped = 0;
    const close = () => {
      clearTimeout(deadline);
      clearTimeout(idle);
      incoming.off('data', onData);
      socket.destroy();
    };
    const onData = (chunk: Buffer) => {
      dropped += chunk.length;
      if (dropped > LINGER_BYTES) close();
      else idle.refresh();
    };
    const deadline = setTimeout(close, LINGER_MS);
    const idle = setTimeout(close, LINGER_IDLE_MS);
    deadline.unref();
    idle.unref();
    socket.once('close', () => {
      clearTimeout(deadline);
      clearTimeout(idle);
    });
    incoming.on('data', onData);
    incoming.resume();
  };
}
