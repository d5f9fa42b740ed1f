import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import {
  createOutboundClient,
  OutboundError,
  type OutboundFailure,
  type OutboundLimits,
  type OutboundRequest,
  type OutboundResponse,
} from './index';
import { closedPort, publicNetwork, startServer, type TestServer } from './outbound.test-kit';

const limits: OutboundLimits = { maxBytes: 1024 * 1024, maxRedirects: 3 };
const names = { 'public.example': ['93.184.216.34'] };

let server: TestServer;
let publicOrigin: string;

beforeAll(async () => {
  server = await startServer((request, response, body) => {
    const path = request.url ?? '/';
    if (path === '/document') {
      response.setHeader('etag', '"v2"');
      response.setHeader('last-modified', 'Wed, 21 Oct 2026 07:28:00 GMT');
      response.setHeader('x-multi', ['one', 'two']);
      response.setHeader('content-type', 'application/json');
      response.end('{"temperature":21}');
    } else if (path === '/conditional') {
      const isFresh =
        request.headers['if-none-match'] === '"v1"' && request.headers['if-modified-since'] === 'Tue, 20 Oct 2026 07:28:00 GMT';
      response.writeHead(isFresh ? 304 : 200, { etag: '"v1"' }).end(isFresh ? undefined : 'changed');
    } else if (path === '/conditional-bare') {
      response.writeHead(304).end();
    } else if (path === '/echo') {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ method: request.method, headers: request.headers, body }));
    } else if (path === '/never') {
      // Never answers: the test closes the client.
    } else {
      response.writeHead(404).end('missing');
    }
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

type Echo = { method: string; headers: Record<string, string>; body: string };

function echoed(body: Buffer): Echo {
  return JSON.parse(body.toString()) as Echo; // the test server's own JSON
}

describe('fetch', () => {
  test('answers status, lower-case headers, body, final URL and validators', async () => {
    const response: OutboundResponse = await publicNetwork(names).client.fetch({ url: `${publicOrigin}/document` }, limits);

    expect(response.status).toBe(200);
    expect(response.body.toString()).toBe('{"temperature":21}');
    expect(response.finalUrl).toBe(`${publicOrigin}/document`);
    expect(response.notModified).toBe(false);
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.headers['x-multi']).toBe('one, two');
    expect(response.validators).toEqual({ etag: '"v2"', lastModified: 'Wed, 21 Oct 2026 07:28:00 GMT' });
  });

  test('a 404 is a response, not a failure', async () => {
    const response = await publicNetwork(names).client.fetch({ url: `${publicOrigin}/elsewhere` }, limits);

    expect([response.status, response.body.toString()]).toEqual([404, 'missing']);
  });

  test('sends the validators; a 304 is notModified with an empty body', async () => {
    const validators = { etag: '"v1"', lastModified: 'Tue, 20 Oct 2026 07:28:00 GMT' };

    const response = await publicNetwork(names).client.fetch({ url: `${publicOrigin}/conditional`, validators }, limits);

    expect(response.status).toBe(304);
    expect(response.notModified).toBe(true);
    expect(response.body.length).toBe(0);
    expect(response.validators).toEqual({ etag: '"v1"', lastModified: 'Tue, 20 Oct 2026 07:28:00 GMT' });
  });

  test('without matching validators the body comes', async () => {
    const response = await publicNetwork(names).client.fetch({ url: `${publicOrigin}/conditional`, validators: { etag: '"v0"' } }, limits);

    expect([response.status, response.notModified, response.body.toString()]).toEqual([200, false, 'changed']);
  });

  test('a 304 without validators keeps the request validators', async () => {
    const validators = { etag: '"v7"' };

    const response = await publicNetwork(names).client.fetch({ url: `${publicOrigin}/conditional-bare`, validators }, limits);

    expect(response.notModified).toBe(true);
    expect(response.validators).toEqual({ etag: '"v7"' });
  });

  test('POST sends the body and headers; framing headers are ours', async () => {
    const request: OutboundRequest = {
      url: `${publicOrigin}/echo`,
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Api-Key': 'k-123', Host: 'internal.example', 'Content-Length': '1' },
      body: Buffer.from('{"query":"rooms"}'),
    };

    const response = await publicNetwork(names).client.fetch(request, limits);
    const echo = echoed(response.body);

    expect(echo.method).toBe('POST');
    expect(echo.body).toBe('{"query":"rooms"}');
    expect(echo.headers['content-type']).toBe('application/json');
    expect(echo.headers['x-api-key']).toBe('k-123');
    expect(echo.headers.host).toBe(`public.example:${server.port}`);
    expect(echo.headers['content-length']).toBe('17');
    expect(echo.headers['accept-encoding']).toBe('gzip, br');
    expect(echo.headers['user-agent']).toContain('signage-platform');
  });
});

describe('addresses and URLs refused before any connection', () => {
  test.each<[string, OutboundFailure, string]>([
    ['not a url', 'invalidUrl', 'The address is not a valid URL'],
    ['ftp://user:pw@files.example/data?token=abc', 'scheme', 'Only http and https addresses can be fetched, not ftp'],
    ['file:///etc/passwd', 'scheme', 'Only http and https addresses can be fetched, not file'],
    ['javascript:alert(1)', 'scheme', 'Only http and https addresses can be fetched, not javascript'],
  ])('%s is refused', async (url, reason, message) => {
    const network = publicNetwork(names);

    const error = await failure(network.client.fetch({ url }, limits));

    expect([error.reason, error.message]).toEqual([reason, message]);
  });

  test.each([
    ['http://2852039166/latest/meta-data/', '169.254.169.254'],
    ['http://0xa9fea9fe/', '169.254.169.254'],
    ['http://0251.0376.0251.0376/', '169.254.169.254'],
    ['http://169.254.43518/', '169.254.169.254'],
    ['http://[::ffff:169.254.169.254]/', '::ffff:a9fe:a9fe (169.254.169.254)'],
    ['http://[fd00:ec2::254]/', 'fd00:ec2::254'],
  ])('%s is the metadata address, refused even with allowPrivateNetwork, without a lookup', async (url, shown) => {
    const network = publicNetwork(names, { allowPrivateNetwork: true });

    const error = await failure(network.client.fetch({ url }, limits));

    expect(error.reason).toBe('address');
    expect(error.message).toContain(`The address ${shown} is a cloud metadata address`);
    expect(network.lookups).toEqual([]);
    expect(network.dialled).toEqual([]);
  });

  test('a loopback literal is refused without a connection', async () => {
    const network = publicNetwork(names);
    const before = server.connections;

    const error = await failure(network.client.fetch({ url: `${server.origin}/document` }, limits));

    expect([error.reason, error.message]).toEqual([
      'address',
      'The address 127.0.0.1 is loopback; outbound requests go to public addresses only',
    ]);
    expect(server.connections).toBe(before);
  });

  test('a name with one private address among public ones is refused', async () => {
    const network = publicNetwork({ 'mixed.example': ['93.184.216.34', '192.168.0.10'] });

    const error = await failure(network.client.fetch({ url: `http://mixed.example:${server.port}/document` }, limits));

    expect(error.reason).toBe('address');
    expect(error.message).toContain('The address 192.168.0.10 of mixed.example is private');
    expect(network.dialled).toEqual([]);
  });

  test('createOutboundClient with allowPrivateNetwork reaches a loopback server', async () => {
    const client = createOutboundClient({ allowPrivateNetwork: true });

    const response = await client.fetch({ url: `${server.origin}/document` }, limits);
    await client.close();

    expect(response.status).toBe(200);
  });
});

describe('requests that cannot be sent', () => {
  test('a header value with a line break is refused and not shown', async () => {
    const error = await failure(
      publicNetwork(names).client.fetch({ url: `${publicOrigin}/echo`, headers: { 'X-Token': 'secret\r\nX-Injected: 1' } }, limits),
    );

    expect([error.reason, error.message]).toEqual(['invalidRequest', 'The header X-Token has a value that cannot be sent']);
  });

  test('a header name that is not a token is refused', async () => {
    const error = await failure(publicNetwork(names).client.fetch({ url: `${publicOrigin}/echo`, headers: { 'Bad Name': 'x' } }, limits));

    expect([error.reason, error.message]).toEqual(['invalidRequest', 'The header name "Bad Name" is not valid']);
  });

  test('a GET with a body is refused', async () => {
    const error = await failure(publicNetwork(names).client.fetch({ url: `${publicOrigin}/echo`, body: 'x' }, limits));

    expect(error.reason).toBe('invalidRequest');
  });

  test('limits that are not numbers are refused', async () => {
    const error = await failure(
      publicNetwork(names).client.fetch({ url: `${publicOrigin}/echo` }, { maxBytes: Number.NaN, maxRedirects: 3 }),
    );

    expect(error.reason).toBe('invalidRequest');
  });

  test('a refused connection is a network failure naming the host', async () => {
    const port = await closedPort();

    const error = await failure(publicNetwork(names).client.fetch({ url: `http://public.example:${port}/` }, limits));

    expect([error.reason, error.message]).toEqual(['network', `The server public.example:${port} refused the connection`]);
  });

  test('a name that does not resolve is a network failure', async () => {
    const error = await failure(publicNetwork(names).client.fetch({ url: 'http://nowhere.example/' }, limits));

    expect([error.reason, error.message]).toEqual(['network', 'The name nowhere.example was not found']);
  });
});

describe('close', () => {
  test('stops a request in flight and refuses later ones', async () => {
    const network = publicNetwork(names);
    const before = server.requests.length;
    const pending = failure(network.client.fetch({ url: `${publicOrigin}/never` }, limits));
    await vi.waitFor(() => expect(server.requests.length).toBeGreaterThan(before));

    await network.client.close();
    const stopped = await pending;
    const later = await failure(network.client.fetch({ url: `${publicOrigin}/document` }, limits));

    expect(stopped.reason).toBe('network');
    expect(stopped.message).toBe(`The request to public.example:${server.port} stopped because the outbound client was closed`);
    expect([later.reason, later.message]).toEqual(['network', 'The outbound client is closed']);
  });
});
