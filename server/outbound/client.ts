import { Readable } from 'node:stream';
import { Agent, type Dispatcher } from 'undici';
import type { AddressPolicy } from './addresses';
import { acceptedEncodings, contentDecoders, openBody } from './body';
import { assertLiteralAllowed, createGuardedConnector, resolveWithSystem } from './connector';
import { formatBytes, OutboundError, shownUrl, toOutboundError } from './outbound-error';
import type { OutboundClient, OutboundLimits, OutboundRequest, OutboundResponse, OutboundStream, Resolver, SettledLimits } from './types';

export type GuardedClientOptions = {
  allowPrivateNetwork: boolean;
  resolve?: Resolver;
  /**
   * TEST-ONLY seams, never set from configuration (createOutboundClient does not pass them): `dialAddress` maps
   * an address that passed the check to the one actually dialled (tests send "public" addresses to 127.0.0.1).
   */
  testOnly?: { dialAddress?: (checkedAddress: string) => string };
};

const defaultTimeouts = { connectTimeoutMs: 5_000, headersTimeoutMs: 10_000, bodyTimeoutMs: 30_000 };
const redirectStatuses = new Set([301, 302, 303, 307, 308]);
const userAgent = 'signage-platform (outbound request)';

/** Framing and hop-by-hop headers (undici refuses or sets them), and Accept-Encoding (we decode what we offer). */
const droppedHeaders = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'keep-alive',
  'upgrade',
  'expect',
  'te',
  'trailer',
  'proxy-connection',
  'accept-encoding',
]);
/** Leave with the origin, as in fetch: another host never sees the first one's credentials. */
const credentialHeaders = ['authorization', 'cookie', 'proxy-authorization'];
/** Leave with the body when a redirect turns the request into a GET. */
const bodyHeaders = ['content-type', 'content-encoding', 'content-language', 'content-location'];

const headerNamePattern = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** The characters undici refuses in a header value (controls but tab, and anything past U+00FF). */
const headerValueRefused = /[^\t\x20-\x7e\x80-\xff]/;

type Method = 'GET' | 'POST';
type Hop = { url: URL; method: Method; body: string | Buffer | undefined; headers: Map<string, string> };

function settleLimits(limits: OutboundLimits): SettledLimits {
  const settled = {
    maxBytes: limits.maxBytes,
    maxRedirects: limits.maxRedirects,
    connectTimeoutMs: limits.connectTimeoutMs ?? defaultTimeouts.connectTimeoutMs,
    headersTimeoutMs: limits.headersTimeoutMs ?? defaultTimeouts.headersTimeoutMs,
    bodyTimeoutMs: limits.bodyTimeoutMs ?? defaultTimeouts.bodyTimeoutMs,
  };
  const isCount = (value: number) => Number.isSafeInteger(value) && value >= 0;
  const isDuration = (value: number) => Number.isFinite(value) && value > 0;
  if (
    !isCount(settled.maxBytes) ||
    !isCount(settled.maxRedirects) ||
    !isDuration(settled.connectTimeoutMs) ||
    !isDuration(settled.headersTimeoutMs) ||
    !isDuration(settled.bodyTimeoutMs)
  ) {
    throw new OutboundError('invalidRequest', 'The limits of the outbound request are not valid');
  }

  return settled;
}

function isFetchedScheme(url: URL): boolean {
  return url.protocol === 'http:' || url.protocol === 'https:';
}

function shownScheme(url: URL): string {
  return url.protocol.slice(0, -1).slice(0, 20);
}

function parseUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new OutboundError('invalidUrl', 'The address is not a valid URL');
  }
  if (!isFetchedScheme(url)) {
    throw new OutboundError('scheme', `Only http and https addresses can be fetched, not ${shownScheme(url)}`);
  }
  url.hash = '';

  return url;
}

function requestHeaders(request: OutboundRequest): Map<string, string> {
  const headers = new Map([
    ['user-agent', userAgent],
    ['accept', '*/*'],
  ]);
  const given = Object.entries(request.headers ?? {});
  if (request.validators?.etag !== undefined) {
    given.push(['if-none-match', request.validators.etag]);
  }
  if (request.validators?.lastModified !== undefined) {
    given.push(['if-modified-since', request.validators.lastModified]);
  }
  for (const [name, value] of given) {
    if (!headerNamePattern.test(name)) {
      throw new OutboundError('invalidRequest', `The header name ${JSON.stringify(name.slice(0, 40))} is not valid`);
    }
    // The value may be a secret: the message names the header only.
    if (typeof value !== 'string' || headerValueRefused.test(value)) {
      throw new OutboundError('invalidRequest', `The header ${name} has a value that cannot be sent`);
    }
    if (!droppedHeaders.has(name.toLowerCase())) {
      headers.set(name.toLowerCase(), value);
    }
  }
  headers.set('accept-encoding', acceptedEncodings);

  return headers;
}

function firstHop(request: OutboundRequest): Hop {
  const url = parseUrl(request.url);
  const method = request.method ?? 'GET';
  if (method !== 'GET' && method !== 'POST') {
    throw new OutboundError('invalidRequest', 'Outbound requests are GET or POST');
  }
  const hasBody = request.body !== undefined && request.body.length > 0;
  if (method === 'GET' && hasBody) {
    throw new OutboundError('invalidRequest', 'A GET request cannot have a body');
  }

  return { url, method, body: hasBody ? request.body : undefined, headers: requestHeaders(request) };
}

function decodedUserinfo(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** The headers sent on a hop: URL credentials become Basic authorization unless one was given. */
function hopHeaders(hop: Hop): Record<string, string> {
  const headers = new Map(hop.headers);
  const { username, password } = hop.url;
  if ((username !== '' || password !== '') && !headers.has('authorization')) {
    const credentials = `${decodedUserinfo(username)}:${decodedUserinfo(password)}`;
    headers.set('authorization', `Basic ${Buffer.from(credentials).toString('base64')}`);
  }

  return Object.fromEntries(headers);
}

function redirectedHop(hop: Hop, status: number, location: string): Hop {
  let url: URL;
  try {
    url = new URL(location, hop.url);
  } catch {
    throw new OutboundError('invalidUrl', `${shownUrl(hop.url)} redirected to an address that is not a valid URL`);
  }
  if (!isFetchedScheme(url)) {
    throw new OutboundError(
      'scheme',
      `${shownUrl(hop.url)} redirected to a ${shownScheme(url)} address; only http and https addresses can be fetched`,
    );
  }
  url.hash = '';
  // Browsers' behaviour: 303 always, and 301/302 after a POST, continue as a GET without the body.
  const isNowGet = status === 303 || ((status === 301 || status === 302) && hop.method === 'POST');
  const headers = new Map(hop.headers);
  const dropped = [...(isNowGet ? bodyHeaders : []), ...(url.origin === hop.url.origin ? [] : credentialHeaders)];
  for (const name of dropped) {
    headers.delete(name);
  }

  return { url, method: isNowGet ? 'GET' : hop.method, body: isNowGet ? undefined : hop.body, headers };
}

function flattenHeaders(raw: Dispatcher.ResponseData['headers']): Record<string, string> {
  const entries = Object.entries(raw).flatMap(([name, value]): Array<[string, string]> => {
    if (value === undefined) {
      return [];
    }

    return [[name.toLowerCase(), Array.isArray(value) ? value.join(', ') : value]];
  });

  return Object.fromEntries(entries);
}

/** The final URL as callers may keep it: with its query, without credentials. */
function withoutCredentials(url: URL): string {
  const shown = new URL(url);
  shown.username = '';
  shown.password = '';

  return shown.href;
}

function definedValidators(etag: string | undefined, lastModified: string | undefined): OutboundResponse['validators'] {
  return { ...(etag === undefined ? {} : { etag }), ...(lastModified === undefined ? {} : { lastModified }) };
}

function discard(body: Readable): void {
  body.on('error', () => {}).destroy();
}

/**
 * The guarded client (spec 5 §1). Each call gets its own undici Agent whose connect checks every address it
 * dials, so the connect timeout can follow the call's limits and nothing is pooled between tenants' requests.
 */
export function createGuardedClient(options: GuardedClientOptions): OutboundClient {
  const policy: AddressPolicy = { allowPrivateNetwork: options.allowPrivateNetwork };
  const resolve = options.resolve ?? resolveWithSystem;
  const agents = new Set<Agent>();
  let isClosed = false;

  const follow = async (context: { agent: Agent; first: Hop; limits: SettledLimits }) => {
    const { agent, first, limits } = context;
    const visited = new Set([`${first.method} ${first.url.href}`]);
    let hop = first;
    for (let redirects = 0; ; redirects += 1) {
      // A literal is refused here without a connection; a name is checked when the connector resolves it.
      assertLiteralAllowed(hop.url.hostname, policy);
      let response: Dispatcher.ResponseData;
      try {
        response = await agent.request({
          origin: hop.url.origin,
          path: `${hop.url.pathname}${hop.url.search}`,
          method: hop.method,
          headers: hopHeaders(hop),
          body: hop.body,
          headersTimeout: limits.headersTimeoutMs,
          bodyTimeout: limits.bodyTimeoutMs,
        });
      } catch (error) {
        throw toOutboundError(error, { host: hop.url.host, limits });
      }
      const location = response.headers.location;
      const isFollowed = redirectStatuses.has(response.statusCode) && typeof location === 'string';
      if (!isFollowed || limits.maxRedirects === 0) {
        return { hop, response };
      }
      discard(response.body);
      if (redirects >= limits.maxRedirects) {
        throw new OutboundError('redirects', `${shownUrl(first.url)} redirected more than ${limits.maxRedirects} times`);
      }
      const next = redirectedHop(hop, response.statusCode, location);
      const key = `${next.method} ${next.url.href}`;
      if (visited.has(key)) {
        throw new OutboundError(
          'redirects',
          `The redirects from ${shownUrl(first.url)} go round in a loop (back to ${shownUrl(next.url)})`,
        );
      }
      visited.add(key);
      hop = next;
    }
  };

  const answer = (context: {
    hop: Hop;
    response: Dispatcher.ResponseData;
    request: OutboundRequest;
    limits: SettledLimits;
  }): OutboundStream => {
    const { hop, response, request, limits } = context;
    const host = hop.url.host;
    const headers = flattenHeaders(response.headers);
    const validators = definedValidators(headers.etag, headers['last-modified']);
    const status = response.statusCode;
    if (status === 304) {
      discard(response.body);

      return {
        status,
        finalUrl: withoutCredentials(hop.url),
        headers,
        body: Readable.from([]),
        notModified: true,
        validators: definedValidators(
          validators.etag ?? request.validators?.etag,
          validators.lastModified ?? request.validators?.lastModified,
        ),
      };
    }
    const declared = headers['content-length'];
    if (declared !== undefined && /^\d+$/.test(declared) && Number(declared) > limits.maxBytes) {
      discard(response.body);
      const sizes = `${formatBytes(Number(declared))}, more than the ${formatBytes(limits.maxBytes)} allowed`;
      throw new OutboundError('tooLarge', `The answer from ${host} is ${sizes}`);
    }
    let decoders;
    try {
      // A decoder fails on an empty body ("unexpected end of file"), which a 204 or a zero length announces.
      const isEmpty = status === 204 || headers['content-length'] === '0';
      decoders = isEmpty ? [] : contentDecoders(headers['content-encoding'], host);
    } catch (error) {
      discard(response.body);
      throw error;
    }
    if (decoders.length > 0) {
      // They describe the encoded body, not the one the caller reads.
      delete headers['content-encoding'];
      delete headers['content-length'];
    }
    const body = openBody({ source: response.body, decoders, maxBytes: limits.maxBytes, host, limits });

    return { status, finalUrl: withoutCredentials(hop.url), headers, body, notModified: false, validators };
  };

  const stream = async (request: OutboundRequest, limits: OutboundLimits): Promise<OutboundStream> => {
    if (isClosed) {
      throw new OutboundError('network', 'The outbound client is closed');
    }
    const settled = settleLimits(limits);
    const first = firstHop(request);
    const agent = new Agent({
      connect: createGuardedConnector({
        policy,
        resolve,
        connectTimeoutMs: settled.connectTimeoutMs,
        dialAddress: options.testOnly?.dialAddress,
      }),
      headersTimeout: settled.headersTimeoutMs,
      bodyTimeout: settled.bodyTimeoutMs,
    });
    agents.add(agent);
    const release = () => {
      agents.delete(agent);
      agent.destroy().catch(() => {});
    };
    try {
      const { hop, response } = await follow({ agent, first, limits: settled });
      const answered = answer({ hop, response, request, limits: settled });
      if (answered.notModified) {
        release();
      } else {
        answered.body.once('close', release);
      }

      return answered;
    } catch (error) {
      release();
      throw toOutboundError(error, { host: first.url.host, limits: settled });
    }
  };

  return {
    stream,
    async fetch(request, limits) {
      const answered = await stream(request, limits);
      const chunks: Buffer[] = [];
      for await (const chunk of answered.body) {
        chunks.push(chunk);
      }

      return { ...answered, body: Buffer.concat(chunks) };
    },
    async close() {
      isClosed = true;
      await Promise.all([...agents].map((agent) => agent.destroy().catch(() => {})));
      agents.clear();
    },
  };
}
