import net from 'node:net';

/**
 * A hand-made HTTP/1.1 client over a raw socket, for what fetch hides: when the answer arrives
 * relative to the bytes sent, whether the server resets the connection, keep-alive.
 */

export type RawAnswer = {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Body bytes the client had written when the answer's head arrived. */
  sentAtAnswer: number;
  /** Body bytes written in all. */
  sent: number;
  /** A write or read error (EPIPE, ECONNRESET), if one happened. */
  error?: string;
  /** The server ended the connection (FIN or reset) before the client did. */
  closedByServer: boolean;
};

export type RawBodyOptions = {
  /** Request line and headers, without the blank line that ends them. */
  head: string;
  /** Body bytes to send in all. */
  total: number;
  /** Send with `Transfer-Encoding: chunked` framing (the head must say so). */
  chunked?: boolean;
  /** Bytes per write. */
  piece?: number;
  /** Pause between writes (a slow client). */
  paceMs?: number;
  /**
   * `'stopOnAnswer'`: stop sending once the answer's head arrived (curl, browsers).
   * `'writeAllFirst'`: send the whole body before looking at the answer (Python's http.client, many scripts);
   * a write error then fails the exchange even when an answer arrived.
   * `'keepSending'`: keep sending after the answer until the server stops reading (or `total`).
   */
  mode: 'stopOnAnswer' | 'writeAllFirst' | 'keepSending';
  /** How long to wait for the answer after the last write. */
  timeoutMs?: number;
};

export async function rawExchange(base: string, options: RawBodyOptions): Promise<RawAnswer> {
  const { hostname, port } = new URL(base);
  // Half-open allowed, as a plain TCP client: the server's FIN does not stop our writes.
  const socket = net.connect({ port: Number(port), host: hostname, allowHalfOpen: true });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const piece = options.piece ?? 64 * 1024;
  const data = Buffer.alloc(piece, 0x61);
  let received = Buffer.alloc(0);
  let headEnd = -1;
  let sent = 0;
  let sentAtAnswer = -1;
  let error: string | undefined;
  let closed = false;
  let answered: () => void = () => undefined;
  const answer = new Promise<void>((resolve) => (answered = resolve));
  socket.on('data', (chunk: Buffer) => {
    received = Buffer.concat([received, chunk]);
    if (headEnd < 0) {
      headEnd = received.indexOf('\r\n\r\n');
      if (headEnd >= 0) {
        sentAtAnswer = sent;
        answered();
      }
    }
  });
  socket.on('error', (err: NodeJS.ErrnoException) => {
    error ??= err.code ?? err.message;
  });
  const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.once('end', () => (closed = true));
  socket.once('close', () => {
    closed = true;
    answered();
  });

  socket.write(`${options.head}\r\n\r\n`);
  const write = (buffer: Buffer) =>
    new Promise<void>((resolve) => {
      if (socket.destroyed) return resolve();
      if (socket.write(buffer)) resolve();
      else {
        const done = () => {
          socket.off('drain', done);
          socket.off('close', done);
          resolve();
        };
        socket.once('drain', done);
        socket.once('close', done);
      }
    });
  while (sent < options.total && !socket.destroyed && error === undefined) {
    if (options.mode === 'stopOnAnswer' && headEnd >= 0) break;
    const size = Math.min(piece, options.total - sent);
    const body = size === piece ? data : data.subarray(0, size);
    await write(options.chunked ? Buffer.concat([Buffer.from(`${size.toString(16)}\r\n`), body, Buffer.from('\r\n')]) : body);
    sent += size;
    if (options.paceMs) await new Promise((resolve) => setTimeout(resolve, options.paceMs));
  }
  if (options.chunked && sent >= options.total && !socket.destroyed) await write(Buffer.from('0\r\n\r\n'));
  const timeout = new Promise<void>((resolve) => setTimeout(resolve, options.timeoutMs ?? 15_000).unref());
  await Promise.race([answer, timeout]);
  // Let the rest of the answer arrive (and a server close, if it comes).
  await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, 300))]);
  const closedByServer = closed;
  socket.destroy();

  const head = headEnd >= 0 ? received.subarray(0, headEnd).toString('latin1') : '';
  const [statusLine, ...headerLines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }

  return {
    status: statusLine ? Number(statusLine.split(' ')[1]) : 0,
    headers,
    body: headEnd >= 0 ? decodeBody(received.subarray(headEnd + 4), headers) : '',
    sentAtAnswer,
    sent,
    error,
    closedByServer,
  };
}

function decodeBody(raw: Buffer, headers: Record<string, string>): string {
  if (headers['transfer-encoding'] !== 'chunked') return raw.toString('utf8');
  const parts: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const lineEnd = raw.indexOf('\r\n', offset);
    if (lineEnd < 0) break;
    const size = parseInt(raw.subarray(offset, lineEnd).toString('latin1'), 16);
    if (!size) break;
    parts.push(raw.subarray(lineEnd + 2, lineEnd + 2 + size));
    offset = lineEnd + 2 + size + 2;
  }

  return Buffer.concat(parts).toString('utf8');
}

/** Two requests on one connection: whether the server kept it alive after the first answer. */
export async function twoOnOneConnection(
  base: string,
  first: { head: string; body: Buffer },
  second: string,
): Promise<{ first: number; second: number }> {
  const { hostname, port } = new URL(base);
  const socket = net.connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  const statuses = () => [...received.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => Number(m[1]));
  const waitFor = async (count: number) => {
    for (let i = 0; i < 200 && statuses().length < count && !socket.destroyed; i++) await new Promise((resolve) => setTimeout(resolve, 25));
  };
  socket.write(`${first.head}\r\n\r\n`);
  socket.write(first.body);
  await waitFor(1);
  if (!socket.destroyed) socket.write(`${second}\r\n\r\n`);
  await waitFor(2);
  socket.destroy();
  const [a = 0, b = 0] = statuses();

  return { first: a, second: b };
}

/**
 * A client that hangs up mid-body: sends the request head, then `prefix` and filler up to `bytes` of a longer body,
 * each write waited for (so the server has read most of them: socket buffers are far smaller), then destroys the
 * socket. Resolves once it closed.
 */
export async function hangUpMidBody(
  base: string,
  options: { head: string; prefix?: string; bytes: number; piece?: number },
): Promise<void> {
  const { hostname, port } = new URL(base);
  const socket = net.connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const data = Buffer.alloc(options.piece ?? 64 * 1024, 0x62);
  await new Promise<void>((resolve) => socket.write(`${options.head}\r\n\r\n${options.prefix ?? ''}`, () => resolve()));
  for (let sent = 0; sent < options.bytes && !socket.destroyed; sent += data.length) {
    await new Promise<void>((resolve) => socket.write(data.subarray(0, Math.min(data.length, options.bytes - sent)), () => resolve()));
  }
  socket.destroy();
  await closed;
}
