import type http from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { OutboundError } from './outbound-error';
import { publicNetwork, startServer, type TestServer } from './outbound.test-kit';

const datasource = { maxBytes: 1024 * 1024, maxRedirects: 3 };
const names = {
  'public.example': ['93.184.216.34'],
  'other.example': ['93.184.216.35'],
  'intranet.example': ['10.0.0.5'],
};

let server: TestServer;

function redirect(response: http.ServerResponse, status: number, location: string): void {
  response.writeHead(status, { location }).end('moved');
}

beforeAll(async () => {
  server = await startServer((request, response, body) => {
    const path = request.url ?? '/';
    const chain = /^\/chain\/(\d+)$/.exec(path);
    if (chain) {
      const left = Number(chain[1]);
      if (left === 0) {
        response.end('done');
      } else {
        redirect(response, 302, `/chain/${left - 1}`);
      }

      return;
    }
    const routes: Record<string, () => void> = {
      '/to-metadata': () => redirect(response, 302, 'http://169.254.169.254/latest/meta-data/'),
      '/to-metadata-decimal': () => redirect(response, 301, 'http://2852039166/latest/meta-data/'),
      '/to-metadata-mapped': () => redirect(response, 307, 'http://[::ffff:169.254.169.254]/latest/meta-data/'),
      '/to-private-literal': () => redirect(response, 302, 'http://10.0.0.5/admin'),
      '/to-private-name': () => redirect(response, 302, `http://intranet.example:${server.port}/echo`),
      '/to-ftp': () => redirect(response, 302, 'ftp://files.example/data.json'),
      '/to-nowhere': () => redirect(response, 302, 'http://[::1'),
      '/loop': () => redirect(response, 302, '/loop'),
      '/see-other': () => redirect(response, 303, '/echo'),
      '/found': () => redirect(response, 302, '/echo'),
      '/temporary': () => redirect(response, 307, '/echo'),
      '/cross': () => redirect(response, 302, `http://other.example:${server.port}/echo`),
      '/same': () => redirect(response, 302, '/echo?step=2'),
      '/echo': () => {
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ method: request.method, headers: request.headers, body }));
      },
    };
    const route = routes[path.split('?')[0] ?? ''];
    if (route) {
      route();
    } else {
      response.writeHead(404).end();
    }
  });
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

describe('redirects to refused addresses', () => {
  test('a local server redirecting to the metadata address is refused without connecting there', async () => {
    const network = publicNetwork({}, { allowPrivateNetwork: true });

    const error = await failure(network.client.fetch({ url: `${server.origin}/to-metadata` }, datasource));

    expect(error.reason).toBe('address');
    expect(error.message).toBe(
      'The address 169.254.169.254 is a cloud metadata address; outbound requests go to public addresses, and loopback and private ones on this deployment, only',
    );
    expect(network.dialled).toEqual(['127.0.0.1']);
  });

  test.each(['/to-metadata-decimal', '/to-metadata-mapped'])('the metadata address spelt otherwise (%s) is refused too', async (path) => {
    const network = publicNetwork({}, { allowPrivateNetwork: true });

    const error = await failure(network.client.fetch({ url: `${server.origin}${path}` }, datasource));

    expect(error.reason).toBe('address');
    expect(error.message).toContain('169.254.169.254');
    expect(network.dialled).toEqual(['127.0.0.1']);
  });

  test('a public server redirecting to a private literal is refused before connecting, without a lookup', async () => {
    const network = publicNetwork(names);

    const error = await failure(network.client.fetch({ url: `http://public.example:${server.port}/to-private-literal` }, datasource));

    expect(error.reason).toBe('address');
    expect(error.message).toBe('The address 10.0.0.5 is private; outbound requests go to public addresses only');
    expect(network.lookups).toEqual(['public.example']);
    expect(network.dialled).toEqual(['93.184.216.34']);
  });

  test('a redirect to a name that resolves privately is checked again and refused', async () => {
    const network = publicNetwork(names);

    const error = await failure(network.client.fetch({ url: `http://public.example:${server.port}/to-private-name` }, datasource));

    expect(error.reason).toBe('address');
    expect(error.message).toContain('The address 10.0.0.5 of intranet.example is private');
    expect(network.lookups).toEqual(['public.example', 'intranet.example']);
    expect(network.dialled).toEqual(['93.184.216.34']);
  });

  test('a redirect to another scheme is refused', async () => {
    const network = publicNetwork(names);

    const error = await failure(network.client.fetch({ url: `http://public.example:${server.port}/to-ftp` }, datasource));

    expect([error.reason, error.message]).toEqual([
      'scheme',
      `http://public.example:${server.port}/to-ftp redirected to a ftp address; only http and https addresses can be fetched`,
    ]);
  });

  test('a redirect to something that is not a URL is refused', async () => {
    const network = publicNetwork(names);

    const error = await failure(network.client.fetch({ url: `http://public.example:${server.port}/to-nowhere` }, datasource));

    expect(error.reason).toBe('invalidUrl');
  });
});

describe('how many redirects', () => {
  test('follows up to maxRedirects and answers the final URL', async () => {
    const network = publicNetwork(names);

    const response = await network.client.fetch({ url: `http://public.example:${server.port}/chain/3` }, datasource);

    expect(response.status).toBe(200);
    expect(response.body.toString()).toBe('done');
    expect(response.finalUrl).toBe(`http://public.example:${server.port}/chain/0`);
  });

  test('one redirect more than maxRedirects fails, without following it', async () => {
    const network = publicNetwork(names);
    const before = server.requests.length;

    const error = await failure(network.client.fetch({ url: `http://public.example:${server.port}/chain/4` }, datasource));

    expect([error.reason, error.message]).toEqual([
      'redirects',
      `http://public.example:${server.port}/chain/4 redirected more than 3 times`,
    ]);
    expect(server.requests.length - before).toBe(4);
  });

  test('with maxRedirects 0 a 3xx is the response', async () => {
    const network = publicNetwork(names);

    const response = await network.client.fetch(
      { url: `http://public.example:${server.port}/chain/1` },
      { maxBytes: 1024, maxRedirects: 0 },
    );

    expect(response.status).toBe(302);
    expect(response.headers.location).toBe('/chain/0');
    expect(response.body.toString()).toBe('moved');
  });

  test('a redirect loop fails at once', async () => {
    const network = publicNetwork(names);
    const before = server.requests.length;

    const error = await failure(
      network.client.fetch(
        { url: `http://user:s3cret@public.example:${server.port}/loop?token=abc` },
        { maxBytes: 1024, maxRedirects: 10 },
      ),
    );

    expect(error.reason).toBe('redirects');
    expect(error.message).toBe(
      `The redirects from http://public.example:${server.port}/loop go round in a loop (back to http://public.example:${server.port}/loop)`,
    );
    // The first URL had a query; the loop is found when /loop comes back a second time.
    expect(server.requests.length - before).toBe(2);
  });
});

describe('requests after a redirect', () => {
  const post = (path: string) => ({
    url: `http://public.example:${server.port}${path}`,
    method: 'POST' as const,
    headers: { 'content-type': 'application/json', 'x-trace': 'abc' },
    body: '{"a":1}',
  });

  test('303 continues as a GET without the body', async () => {
    const response = await publicNetwork(names).client.fetch(post('/see-other'), datasource);
    const echo = echoed(response.body);

    expect([echo.method, echo.body, echo.headers['content-type'], echo.headers['x-trace']]).toEqual(['GET', '', undefined, 'abc']);
  });

  test('302 after a POST continues as a GET, as browsers do', async () => {
    const response = await publicNetwork(names).client.fetch(post('/found'), datasource);
    const echo = echoed(response.body);

    expect([echo.method, echo.body, echo.headers['content-type']]).toEqual(['GET', '', undefined]);
  });

  test('307 keeps the method, the body and its type', async () => {
    const response = await publicNetwork(names).client.fetch(post('/temporary'), datasource);
    const echo = echoed(response.body);

    expect([echo.method, echo.body, echo.headers['content-type']]).toEqual(['POST', '{"a":1}', 'application/json']);
  });

  const credentials = { authorization: 'Bearer secret-token', cookie: 'session=1', 'x-trace': 'abc' };

  test('a cross-origin redirect drops Authorization and Cookie, and keeps the rest', async () => {
    const response = await publicNetwork(names).client.fetch(
      { url: `http://public.example:${server.port}/cross`, headers: credentials },
      datasource,
    );
    const echo = echoed(response.body);

    expect(echo.headers.authorization).toBeUndefined();
    expect(echo.headers.cookie).toBeUndefined();
    expect(echo.headers['x-trace']).toBe('abc');
    expect(echo.headers.host).toBe(`other.example:${server.port}`);
    expect(response.finalUrl).toBe(`http://other.example:${server.port}/echo`);
  });

  test('a same-origin redirect keeps them', async () => {
    const response = await publicNetwork(names).client.fetch(
      { url: `http://public.example:${server.port}/same`, headers: credentials },
      datasource,
    );
    const echo = echoed(response.body);

    expect([echo.headers.authorization, echo.headers.cookie]).toEqual(['Bearer secret-token', 'session=1']);
    expect(response.finalUrl).toBe(`http://public.example:${server.port}/echo?step=2`);
  });

  test('credentials in the URL are sent as Basic authorization to their origin only, and not shown', async () => {
    const network = publicNetwork(names);

    const same = await network.client.fetch({ url: `http://user:s3cret@public.example:${server.port}/same` }, datasource);
    const cross = await network.client.fetch({ url: `http://user:s3cret@public.example:${server.port}/cross` }, datasource);

    expect(echoed(same.body).headers.authorization).toBe(`Basic ${Buffer.from('user:s3cret').toString('base64')}`);
    expect(same.finalUrl).toBe(`http://public.example:${server.port}/echo?step=2`);
    expect(echoed(cross.body).headers.authorization).toBeUndefined();
  });
});
