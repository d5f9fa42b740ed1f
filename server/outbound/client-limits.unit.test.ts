import type http from 'node:http';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { OutboundError, type OutboundStream } from './index';
import { publicNetwork, startRawServer, startServer, type TestServer } from './outbound.test-kit';

const names = { 'public.example': ['93.184.216.34'], 'slow.example': ['93.184.216.36'] };
const kib = 1024;
const mib = 1024 * kib;

let server: TestServer;
let publicOrigin: string;
const zeros = Buffer.alloc(8 * mib);
const gzipBomb = zlib.gzipSync(zeros);
const text = Buffer.from('signage '.repeat(1000));

/** Writes `chunk` again and again while the client reads, until the client goes away or `total` is sent. */
function flood(response: http.ServerResponse, chunk: Buffer, total = Number.POSITIVE_INFINITY): void {
  let sent = 0;
  const writeMore = () => {
    while (sent < total && !response.destroyed) {
      sent += chunk.length;
      if (!response.write(chunk)) {
        response.once('drain', writeMore);

        return;
      }
    }
    if (sent >= total) {
      response.end();
    }
  };
  writeMore();
}

/** One byte every 20 ms, for ever: the body never goes idle long enough for an idle timeout. */
function trickle(response: http.ServerResponse): void {
  response.writeHead(200, { 'content-type': 'text/plain' });
  const interval = setInterval(() => response.write('.'), 20);
  response.on('close', () => clearInterval(interval));
}

beforeAll(async () => {
  server = await startServer((request, response) => {
    const routes: Record<string, () => void> = {
      '/declared-huge': () => {
        // Declares 50 MiB, sends a little, and waits: reading on would hang until the test's own timeout.
        response.writeHead(200, { 'content-length': String(50 * mib) });
        response.write('start');
      },
      '/chunked-forever': () => flood(response, Buffer.alloc(64 * kib, 'x')),
      '/chunked-5mib': () => flood(response, Buffer.alloc(64 * kib, 'y'), 5 * mib),
      '/gzip-bomb': () => response.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipBomb),
      '/gzip': () => response.writeHead(200, { 'content-encoding': 'gzip' }).end(zlib.gzipSync(text)),
      '/br': () => response.writeHead(200, { 'content-encoding': 'br' }).end(zlib.brotliCompressSync(text)),
      '/deflate': () => response.writeHead(200, { 'content-encoding': 'deflate' }).end(zlib.deflateSync(text)),
      '/empty-gzip': () => response.writeHead(200, { 'content-encoding': 'gzip', 'content-length': '0' }).end(),
      '/zstd': () => response.writeHead(200, { 'content-encoding': 'zstd' }).end('not really'),
      '/corrupt-gzip': () => response.writeHead(200, { 'content-encoding': 'gzip' }).end('not gzip at all'),
      '/silent': () => {},
      '/trickle': () => trickle(response),
    };
    routes[request.url ?? '']?.();
  });
  publicOrigin = `http://public.example:${server.port}`;
});
afterAll(async () => {
  await server.close();
});

async function failure(promise: Promise<unknown>): Promise<OutboundError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof OutboundError)) {
    throw new Error(`expected an OutboundError, got ${String(error)}`);
  }

  return error;
}

/** A destination that counts what it is given (the caller's storage, in production). */
function countingSink(): { sink: Writable; counted: { bytes: number } } {
  const counted = { bytes: 0 };
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      counted.bytes += chunk.length;
      callback();
    },
  });

  return { sink, counted };
}

describe('size caps', () => {
  test('a Content-Length over the cap is refused before the body is read', async () => {
    const error = await failure(
      publicNetwork(names).client.fetch(
        { url: `${publicOrigin}/declared-huge` },
        { maxBytes: mib, maxRedirects: 0, bodyTimeoutMs: 600_000 },
      ),
    );

    expect([error.reason, error.message]).toEqual([
      'tooLarge',
      `The answer from public.example:${server.port} is 50 MiB, more than the 1 MiB allowed`,
    ]);
  });

  test('a chunked body past the cap is cut off, and the connection closed', async () => {
    const before = server.closedConnections;

    const error = await failure(
      publicNetwork(names).client.fetch({ url: `${publicOrigin}/chunked-forever` }, { maxBytes: 256 * kib, maxRedirects: 0 }),
    );

    expect([error.reason, error.message]).toEqual([
      'tooLarge',
      `The answer from public.example:${server.port} is larger than the 256 KiB allowed`,
    ]);
    await vi.waitFor(() => expect(server.closedConnections).toBeGreaterThan(before));
  });

  test('a body without a length, read until the connection closes, is counted too', async () => {
    const raw = await startRawServer((socket) => {
      socket.write('HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n');
      socket.end(Buffer.alloc(300 * kib, 'z'));
    });
    const origin = `http://public.example:${raw.port}`;
    const network = publicNetwork(names);

    const error = await failure(network.client.fetch({ url: origin }, { maxBytes: 100 * kib, maxRedirects: 0 }));
    const response = await network.client.fetch({ url: origin }, { maxBytes: 300 * kib, maxRedirects: 0 });
    await raw.close();

    expect(error.reason).toBe('tooLarge');
    expect(response.body.length).toBe(300 * kib);
  });

  test('the cap applies to the decompressed size (a gzip bomb)', async () => {
    expect(gzipBomb.length).toBeLessThan(64 * kib);

    const error = await failure(
      publicNetwork(names).client.fetch({ url: `${publicOrigin}/gzip-bomb` }, { maxBytes: mib, maxRedirects: 0 }),
    );

    expect(error.reason).toBe('tooLarge');
  });

  test.each(['/gzip', '/br', '/deflate'])('%s is decoded, and the encoding headers left out', async (path) => {
    const response = await publicNetwork(names).client.fetch({ url: `${publicOrigin}${path}` }, { maxBytes: mib, maxRedirects: 0 });

    expect(response.body.equals(text)).toBe(true);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.headers['content-length']).toBeUndefined();
  });

  test('an empty body marked gzip is empty, not a decoding failure', async () => {
    const response = await publicNetwork(names).client.fetch(
      { url: `${publicOrigin}/empty-gzip` },
      { maxBytes: mib, maxRedirects: 0, connectTimeoutMs: undefined },
    );

    expect([response.status, response.body.length]).toEqual([200, 0]);
  });

  test('an encoding we do not offer is a network failure', async () => {
    const error = await failure(publicNetwork(names).client.fetch({ url: `${publicOrigin}/zstd` }, { maxBytes: mib, maxRedirects: 0 }));

    expect([error.reason, error.message]).toEqual([
      'network',
      `The server public.example:${server.port} answered in the zstd encoding, which is not supported`,
    ]);
  });

  test('a body that does not decode is a network failure', async () => {
    const error = await failure(
      publicNetwork(names).client.fetch({ url: `${publicOrigin}/corrupt-gzip` }, { maxBytes: mib, maxRedirects: 0 }),
    );

    expect([error.reason, error.message]).toEqual([
      'network',
      `The server public.example:${server.port} sent a compressed body that cannot be decoded`,
    ]);
  });
});

describe('timeouts', () => {
  test('a server that never answers fails at the headers timeout', async () => {
    const error = await failure(
      publicNetwork(names).client.fetch({ url: `${publicOrigin}/silent` }, { maxBytes: mib, maxRedirects: 0, headersTimeoutMs: 300 }),
    );

    expect([error.reason, error.message]).toEqual(['timeout', `The server public.example:${server.port} did not answer within 300 ms`]);
  });

  test('a body that trickles in fails at the whole-body timeout, though it never goes idle', async () => {
    const error = await failure(
      publicNetwork(names).client.fetch({ url: `${publicOrigin}/trickle` }, { maxBytes: mib, maxRedirects: 0, bodyTimeoutMs: 300 }),
    );

    expect([error.reason, error.message]).toEqual([
      'timeout',
      `The answer from public.example:${server.port} did not arrive within 300 ms`,
    ]);
  });

  test('a name that never resolves fails at the connect timeout', async () => {
    const network = publicNetwork({}, { resolve: () => new Promise(() => {}) });

    const error = await failure(
      network.client.fetch({ url: 'http://slow.example/' }, { maxBytes: mib, maxRedirects: 0, connectTimeoutMs: 200 }),
    );

    expect([error.reason, error.message]).toEqual(['timeout', 'Could not connect to slow.example within 200 ms']);
  });
});

describe('stream', () => {
  test('pipes a large body within the cap', async () => {
    const answer: OutboundStream = await publicNetwork(names).client.stream(
      { url: `${publicOrigin}/chunked-5mib` },
      { maxBytes: 8 * mib, maxRedirects: 0 },
    );
    const { sink, counted } = countingSink();

    await pipeline(answer.body, sink);

    expect(answer.status).toBe(200);
    expect(counted.bytes).toBe(5 * mib);
  });

  test('fails mid-stream when the body passes the cap', async () => {
    const answer = await publicNetwork(names).client.stream({ url: `${publicOrigin}/chunked-5mib` }, { maxBytes: mib, maxRedirects: 0 });
    const { sink, counted } = countingSink();

    const error = await failure(pipeline(answer.body, sink));

    expect(error.reason).toBe('tooLarge');
    expect(counted.bytes).toBeGreaterThan(0);
    expect(counted.bytes).toBeLessThanOrEqual(mib);
  });

  test('fails mid-stream when the whole body takes too long', async () => {
    const answer = await publicNetwork(names).client.stream(
      { url: `${publicOrigin}/trickle` },
      { maxBytes: mib, maxRedirects: 0, bodyTimeoutMs: 300 },
    );
    const { sink, counted } = countingSink();

    const error = await failure(pipeline(answer.body, sink));

    expect(error.reason).toBe('timeout');
    expect(counted.bytes).toBeGreaterThan(0);
  });

  test('a caller that stops reading closes the connection', async () => {
    const before = server.closedConnections;
    const answer = await publicNetwork(names).client.stream(
      { url: `${publicOrigin}/chunked-forever` },
      { maxBytes: 100 * mib, maxRedirects: 0 },
    );

    answer.body.destroy();

    await vi.waitFor(() => expect(server.closedConnections).toBeGreaterThan(before));
  });
});
