import { lookup } from 'node:dns/promises';
import type { Socket } from 'node:net';
import { buildConnector } from 'undici';
import { canonicalAddress, literalAddress, refusedAddressReason, type AddressPolicy } from './addresses';
import { errorCode, formatDuration, OutboundError, toOutboundError } from './outbound-error';
import type { Resolver } from './types';

export const resolveWithSystem: Resolver = async (hostname) => {
  const found = await lookup(hostname, { all: true, verbatim: true });

  return found.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
};

function refusal(context: { address: string; hostname?: string; reason: string; policy: AddressPolicy }): OutboundError {
  const { address, hostname, reason, policy } = context;
  const of = hostname === undefined ? '' : ` of ${hostname}`;
  const canonical = canonicalAddress(address);
  const shown = canonical === undefined || canonical === address ? address : `${address} (${canonical})`;
  const allowed = policy.allowPrivateNetwork ? 'public addresses, and loopback and private ones on this deployment,' : 'public addresses';

  return new OutboundError('address', `The address ${shown}${of} is ${reason}; outbound requests go to ${allowed} only`);
}

/** Refuses an IP-literal host before anything is dialled or looked up; a name passes (checked when resolved). */
export function assertLiteralAllowed(hostname: string, policy: AddressPolicy): void {
  const literal = literalAddress(hostname);
  const reason = literal === undefined ? undefined : refusedAddressReason(literal, policy);
  if (literal !== undefined && reason !== undefined) {
    throw refusal({ address: literal, reason, policy });
  }
}

const lookupCodes = new Set(['ENOTFOUND', 'EAI_AGAIN', 'ENODATA']);

function lookupError(error: unknown, hostname: string): OutboundError {
  const code = errorCode(error);

  return code !== undefined && lookupCodes.has(code)
    ? toOutboundError(error, { host: hostname })
    : new OutboundError('network', `The name ${hostname} could not be looked up`);
}

/**
 * The addresses a connection to `hostname` may use, canonical: the literal itself, or every address the name
 * resolves to (one lookup). Any refused address refuses the name — a name that mixes public and private
 * addresses is how DNS rebinding picks the private one later.
 */
export async function checkedAddresses(context: { hostname: string; policy: AddressPolicy; resolve: Resolver }): Promise<string[]> {
  const { hostname, policy, resolve } = context;
  const literal = literalAddress(hostname);
  if (literal !== undefined) {
    assertLiteralAllowed(hostname, policy);

    return [canonicalAddress(literal) ?? literal];
  }
  let found: Awaited<ReturnType<Resolver>>;
  try {
    found = await resolve(hostname);
  } catch (error) {
    throw lookupError(error, hostname);
  }
  if (found.length === 0) {
    throw new OutboundError('network', `The name ${hostname} has no address`);
  }
  const addresses: string[] = [];
  for (const { address } of found) {
    const reason = refusedAddressReason(address, policy);
    const canonical = canonicalAddress(address);
    if (reason !== undefined || canonical === undefined) {
      throw refusal({ address, hostname, reason: reason ?? 'not an IP address', policy });
    }
    if (!addresses.includes(canonical)) {
      addresses.push(canonical);
    }
  }

  return addresses;
}

export type GuardedConnectorOptions = {
  policy: AddressPolicy;
  resolve: Resolver;
  connectTimeoutMs: number;
  /**
   * TEST-ONLY: where a checked address is dialled. Tests map an approved public address to 127.0.0.1 here,
   * after the check; production never sets it (createOutboundClient does not accept it).
   */
  dialAddress?: (checkedAddress: string) => string;
  /** Opens the socket to an address: undici's connector by default, a spy in tests. */
  baseConnect?: buildConnector.connector;
};

type ConnectOptions = buildConnector.Options;

function dial(context: {
  baseConnect: buildConnector.connector;
  options: ConnectOptions;
  address: string;
  servername: string | undefined;
}): Promise<Socket> {
  const { baseConnect, options, address, servername } = context;

  return new Promise((resolve, reject) => {
    baseConnect({ ...options, hostname: address, servername }, (error, socket) => {
      if (error) {
        reject(error);
      } else {
        resolve(socket);
      }
    });
  });
}

/**
 * undici's `connect` for outbound requests: resolve once, check every address, dial a checked address (the
 * URL's hostname stays the TLS servername and the Host header), then check the socket's remote address again.
 * The whole of it (lookup included) shares one connect timeout.
 */
export function createGuardedConnector(options: GuardedConnectorOptions): buildConnector.connector {
  const { policy, resolve, connectTimeoutMs, dialAddress = (address: string) => address } = options;
  const baseConnect = options.baseConnect ?? buildConnector({ timeout: connectTimeoutMs });

  return (connectOptions, callback) => {
    const { hostname } = connectOptions;
    const host = connectOptions.host ?? hostname;
    let isSettled = false;
    const settle = (error: Error | null, socket?: Socket) => {
      if (isSettled) {
        socket?.destroy();

        return;
      }
      isSettled = true;
      clearTimeout(timer);
      if (socket && !error) {
        callback(null, socket);
      } else {
        callback(error ?? new OutboundError('network', `Could not connect to ${host}`), null);
      }
    };
    const timer = setTimeout(() => {
      settle(new OutboundError('timeout', `Could not connect to ${host} within ${formatDuration(connectTimeoutMs)}`));
    }, connectTimeoutMs);

    const connectChecked = async (): Promise<Socket> => {
      const addresses = await checkedAddresses({ hostname, policy, resolve });
      const servername = literalAddress(hostname) === undefined ? hostname : undefined;
      let lastError: unknown;
      // In order, the next on failure: an IPv6 address first on a host without IPv6 routes must not fail the request.
      for (const checked of addresses) {
        if (isSettled) {
          break;
        }
        const dialled = dialAddress(checked);
        let socket: Socket;
        try {
          socket = await dial({ baseConnect, options: connectOptions, address: dialled, servername });
        } catch (error) {
          lastError = error;
          continue;
        }
        assertConnectedTo({ socket, checked, dialled, hostname, policy });

        return socket;
      }

      throw toOutboundError(lastError, { host, limits: { connectTimeoutMs } });
    };
    connectChecked().then(
      (socket) => settle(null, socket),
      (error: unknown) => settle(toOutboundError(error, { host, limits: { connectTimeoutMs } })),
    );
  };
}

/** After connecting: the socket must have reached the address that was dialled, and that address must pass. */
function assertConnectedTo(context: { socket: Socket; checked: string; dialled: string; hostname: string; policy: AddressPolicy }): void {
  const { socket, checked, dialled, hostname, policy } = context;
  const remote = socket.remoteAddress === undefined ? undefined : canonicalAddress(socket.remoteAddress);
  if (remote === undefined || remote !== canonicalAddress(dialled)) {
    socket.destroy();
    throw new OutboundError('address', `The connection to ${hostname} reached ${remote ?? 'an unknown address'} instead of ${checked}`);
  }
  // With the test-only dial mapping the remote is the mapped loopback address; the checked one passed above.
  const reason = dialled === checked ? refusedAddressReason(remote, policy) : undefined;
  if (reason !== undefined) {
    socket.destroy();
    throw refusal({ address: remote, hostname, reason, policy });
  }
}
