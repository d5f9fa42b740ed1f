import net from 'node:net';
import type { buildConnector } from 'undici';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { checkedAddresses, createGuardedConnector } from './connector';
import { OutboundError } from './outbound-error';
import { startRawServer } from './outbound.test-kit';
import type { Resolver } from './types';

const closed = { allowPrivateNetwork: false };
const intranet = { allowPrivateNetwork: true };

function fakeResolver(names: Record<string, string[]>): Resolver & { calls: string[] } {
  const calls: string[] = [];
  const resolve = async (hostname: string) => {
    calls.push(hostname);

    return (names[hostname] ?? []).map((address) => ({ address, family: address.includes(':') ? (6 as const) : (4 as const) }));
  };

  return Object.assign(resolve, { calls });
}

async function refusal(promise: Promise<unknown>): Promise<OutboundError> {
  const error = await promise.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  if (!(error instanceof OutboundError)) {
    throw new Error(`expected an OutboundError, got ${String(error)}`);
  }

  return error;
}

describe('checkedAddresses', () => {
  test('refuses a name that resolves to a public and a private address, naming the private one', async () => {
    const resolve = fakeResolver({ 'intranet.example': ['93.184.216.34', '10.0.0.5'] });
    const error = await refusal(checkedAddresses({ hostname: 'intranet.example', policy: closed, resolve }));

    expect(error.reason).toBe('address');
    expect(error.message).toBe('The address 10.0.0.5 of intranet.example is private; outbound requests go to public addresses only');
  });

  test('refuses a name that resolves to the metadata address even with allowPrivateNetwork', async () => {
    const resolve = fakeResolver({ 'metadata.example': ['169.254.169.254'] });
    const error = await refusal(checkedAddresses({ hostname: 'metadata.example', policy: intranet, resolve }));

    expect(error.reason).toBe('address');
    expect(error.message).toContain('169.254.169.254 of metadata.example is a cloud metadata address');
  });

  test('refuses a name that resolves to the IPv6 metadata address even with allowPrivateNetwork', async () => {
    const resolve = fakeResolver({ 'metadata.example': ['fd00:ec2::254'] });
    const error = await refusal(checkedAddresses({ hostname: 'metadata.example', policy: intranet, resolve }));

    expect(error.message).toContain('fd00:ec2::254 of metadata.example is a cloud metadata address');
  });

  test('answers every address of a public name, canonical and once each', async () => {
    const resolve = fakeResolver({ 'public.example': ['2606:4700:4700:0:0:0:0:1111', '93.184.216.34', '::ffff:93.184.216.34'] });

    await expect(checkedAddresses({ hostname: 'public.example', policy: closed, resolve })).resolves.toEqual([
      '2606:4700:4700::1111',
      '93.184.216.34',
    ]);
  });

  test('lets loopback and private names through with allowPrivateNetwork', async () => {
    const resolve = fakeResolver({ localhost: ['127.0.0.1', '::1'], 'nas.lan': ['192.168.1.20'] });

    await expect(checkedAddresses({ hostname: 'localhost', policy: intranet, resolve })).resolves.toEqual(['127.0.0.1', '::1']);
    await expect(checkedAddresses({ hostname: 'nas.lan', policy: intranet, resolve })).resolves.toEqual(['192.168.1.20']);
  });

  test('checks a literal without asking the resolver', async () => {
    const resolve = fakeResolver({});

    await expect(checkedAddresses({ hostname: '8.8.8.8', policy: closed, resolve })).resolves.toEqual(['8.8.8.8']);
    await expect(checkedAddresses({ hostname: '[2606:4700:4700::1111]', policy: closed, resolve })).resolves.toEqual([
      '2606:4700:4700::1111',
    ]);
    const error = await refusal(checkedAddresses({ hostname: '10.0.0.5', policy: closed, resolve }));
    expect(error.message).toBe('The address 10.0.0.5 is private; outbound requests go to public addresses only');
    expect(resolve.calls).toEqual([]);
  });

  test('a name that does not resolve is a network failure a person can read', async () => {
    const notFound: Resolver = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.example'), { code: 'ENOTFOUND' });
    };
    const broken: Resolver = async () => {
      throw new Error('internal resolver stack detail');
    };

    const missing = await refusal(checkedAddresses({ hostname: 'nowhere.example', policy: closed, resolve: notFound }));
    expect([missing.reason, missing.message]).toEqual(['network', 'The name nowhere.example was not found']);
    const failed = await refusal(checkedAddresses({ hostname: 'odd.example', policy: closed, resolve: broken }));
    expect([failed.reason, failed.message]).toEqual(['network', 'The name odd.example could not be looked up']);
    const empty = await refusal(checkedAddresses({ hostname: 'empty.example', policy: closed, resolve: fakeResolver({}) }));
    expect([empty.reason, empty.message]).toEqual(['network', 'The name empty.example has no address']);
  });
});

describe('createGuardedConnector', () => {
  let server: Awaited<ReturnType<typeof startRawServer>>;

  beforeEach(async () => {
    server = await startRawServer(() => {});
  });
  afterEach(async () => {
    await server.close();
  });

  function connectWith(connector: buildConnector.connector, options: buildConnector.Options): Promise<net.Socket> {
    return new Promise((resolve, reject) => {
      connector(options, (error, socket) => (error ? reject(error) : resolve(socket)));
    });
  }

  /** Opens a real socket to the local server whatever address it is asked for, recording what it was asked. */
  function loopbackConnect(calls: buildConnector.Options[], options: { failFirst?: boolean } = {}): buildConnector.connector {
    return (connectOptions, callback) => {
      calls.push(connectOptions);
      if (options.failFirst && calls.length === 1) {
        callback(Object.assign(new Error('connect ENETUNREACH'), { code: 'ENETUNREACH' }), null);

        return;
      }
      const socket = net.connect({ host: '127.0.0.1', port: server.port });
      socket.once('connect', () => callback(null, socket));
      socket.once('error', (error) => callback(error, null));
    };
  }

  test('dials the checked address with the hostname as TLS servername and Host, trying the next on failure', async () => {
    const resolve = fakeResolver({ 'public.example': ['2606:4700::6810:85e5', '93.184.216.34'] });
    const calls: buildConnector.Options[] = [];
    const dialled: string[] = [];
    const connector = createGuardedConnector({
      policy: closed,
      resolve,
      connectTimeoutMs: 5_000,
      dialAddress: (address) => {
        dialled.push(address);

        return '127.0.0.1';
      },
      baseConnect: loopbackConnect(calls, { failFirst: true }),
    });

    const socket = await connectWith(connector, {
      hostname: 'public.example',
      host: 'public.example',
      protocol: 'https:',
      port: '443',
      servername: 'public.example',
    });
    socket.destroy();

    expect(resolve.calls).toEqual(['public.example']);
    expect(dialled).toEqual(['2606:4700::6810:85e5', '93.184.216.34']);
    expect(calls.map(({ hostname, servername, host }) => ({ hostname, servername, host }))).toEqual([
      { hostname: '127.0.0.1', servername: 'public.example', host: 'public.example' },
      { hostname: '127.0.0.1', servername: 'public.example', host: 'public.example' },
    ]);
  });

  test('refuses a socket that reached another address than the one dialled, and closes it', async () => {
    const resolve = fakeResolver({ 'public.example': ['93.184.216.34'] });
    const calls: buildConnector.Options[] = [];
    // No dial mapping: the connector asks for 93.184.216.34 but the socket lands on 127.0.0.1.
    const connector = createGuardedConnector({ policy: closed, resolve, connectTimeoutMs: 5_000, baseConnect: loopbackConnect(calls) });

    const error = await refusal(connectWith(connector, { hostname: 'public.example', protocol: 'http:', port: '80' }));

    expect(error.reason).toBe('address');
    expect(error.message).toBe('The connection to public.example reached 127.0.0.1 instead of 93.184.216.34');
    expect(calls.map(({ hostname }) => hostname)).toEqual(['93.184.216.34']);
  });

  test('checks the remote address of the socket after connecting', async () => {
    const calls: buildConnector.Options[] = [];
    // allowPrivateNetwork lets 127.0.0.1 through the lookup; a policy that changes in between is refused after.
    const policy = { allowPrivateNetwork: true };
    const baseConnect: buildConnector.connector = (connectOptions, callback) => {
      policy.allowPrivateNetwork = false;
      loopbackConnect(calls)(connectOptions, callback);
    };
    const connector = createGuardedConnector({ policy, resolve: fakeResolver({}), connectTimeoutMs: 5_000, baseConnect });

    const error = await refusal(connectWith(connector, { hostname: '127.0.0.1', protocol: 'http:', port: String(server.port) }));

    expect(error.reason).toBe('address');
    expect(error.message).toContain('The address 127.0.0.1 of 127.0.0.1 is loopback');
  });

  test('a lookup that never answers fails within the connect timeout', async () => {
    const calls: buildConnector.Options[] = [];
    const connector = createGuardedConnector({
      policy: closed,
      resolve: () => new Promise(() => {}),
      connectTimeoutMs: 200,
      baseConnect: loopbackConnect(calls),
    });

    const error = await refusal(connectWith(connector, { hostname: 'slow.example', host: 'slow.example', protocol: 'http:', port: '80' }));

    expect([error.reason, error.message]).toEqual(['timeout', 'Could not connect to slow.example within 200 ms']);
    expect(calls).toEqual([]);
  });

  test('a refused connection is a network failure naming the host', async () => {
    const connector = createGuardedConnector({
      policy: closed,
      resolve: fakeResolver({ 'public.example': ['93.184.216.34'] }),
      connectTimeoutMs: 5_000,
      baseConnect: (_options, callback) =>
        callback(Object.assign(new Error('connect ECONNREFUSED 93.184.216.34:80'), { code: 'ECONNREFUSED' }), null),
    });

    const error = await refusal(
      connectWith(connector, { hostname: 'public.example', host: 'public.example', protocol: 'http:', port: '80' }),
    );

    expect([error.reason, error.message]).toEqual(['network', 'The server public.example refused the connection']);
  });
});
