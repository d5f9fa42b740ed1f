export type OutboundFailure = 'invalidUrl' | 'invalidRequest' | 'scheme' | 'address' | 'redirects' | 'timeout' | 'tooLarge' | 'network';

/** A failed outbound request; `message` is a sentence a tenant can read (no stack, no credentials, no query). */
export class OutboundError extends Error {
  readonly reason: OutboundFailure;

  constructor(reason: OutboundFailure, message: string) {
    super(message);
    this.name = 'OutboundError';
    this.reason = reason;
  }
}

const maxShownUrlLength = 200;

/** A URL as messages show it: scheme, host and path; never the credentials, the query or the fragment. */
export function shownUrl(url: URL): string {
  const shown = `${url.protocol}//${url.host}${url.pathname}`;

  return shown.length > maxShownUrlLength ? `${shown.slice(0, maxShownUrlLength)}…` : shown;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) {
    return `${bytes} bytes`;
  }
  const [value, unit] = bytes < 1024 * 1024 ? [bytes / 1024, 'KiB'] : [bytes / (1024 * 1024), 'MiB'];

  return `${Number(value.toFixed(1))} ${unit}`;
}

export function formatDuration(milliseconds: number): string {
  return milliseconds < 1000 ? `${milliseconds} ms` : `${Number((milliseconds / 1000).toFixed(1))} s`;
}

/** Node's and undici's error codes that a person can act on, as a sentence about the host. */
const networkSentences: Record<string, (host: string) => string> = {
  ECONNREFUSED: (host) => `The server ${host} refused the connection`,
  ECONNRESET: (host) => `The server ${host} closed the connection unexpectedly`,
  EPIPE: (host) => `The server ${host} closed the connection unexpectedly`,
  UND_ERR_SOCKET: (host) => `The server ${host} closed the connection unexpectedly`,
  EHOSTUNREACH: (host) => `The server ${host} cannot be reached`,
  ENETUNREACH: (host) => `The server ${host} cannot be reached`,
  EHOSTDOWN: (host) => `The server ${host} cannot be reached`,
  ENOTFOUND: (host) => `The name ${host} was not found`,
  EAI_AGAIN: (host) => `The name ${host} could not be looked up (the name server did not answer)`,
  ENODATA: (host) => `The name ${host} has no address`,
  UND_ERR_HEADERS_OVERFLOW: (host) => `The server ${host} answered with headers that are too large`,
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: (host) => `The server ${host} sent a body that does not match its length`,
  Z_DATA_ERROR: (host) => `The server ${host} sent a compressed body that cannot be decoded`,
  Z_BUF_ERROR: (host) => `The server ${host} sent a compressed body that is cut short`,
  ERR_BROTLI_DECOMPRESSION_FAILED: (host) => `The server ${host} sent a compressed body that cannot be decoded`,
  UND_ERR_DESTROYED: (host) => `The request to ${host} stopped because the outbound client was closed`,
  UND_ERR_CLOSED: (host) => `The request to ${host} stopped because the outbound client was closed`,
  UND_ERR_ABORTED: (host) => `The request to ${host} was stopped`,
};

export function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) {
    return undefined;
  }

  return typeof error.code === 'string' ? error.code : undefined;
}

/**
 * Any error met on the way (undici's, Node's, zlib's, ours) as an OutboundError about `host`: the internals'
 * messages never reach a tenant, only a short phrase chosen from the error's code.
 */
export function toOutboundError(error: unknown, context: { host: string; limits?: Partial<TimeoutLimits> }): OutboundError {
  if (error instanceof OutboundError) {
    return error;
  }
  const code = errorCode(error);
  const { host, limits } = context;
  const within = (milliseconds: number | undefined) => (milliseconds === undefined ? '' : ` within ${formatDuration(milliseconds)}`);
  if (code === 'UND_ERR_CONNECT_TIMEOUT') {
    return new OutboundError('timeout', `Could not connect to ${host}${within(limits?.connectTimeoutMs)}`);
  }
  if (code === 'UND_ERR_HEADERS_TIMEOUT') {
    return new OutboundError('timeout', `The server ${host} did not answer${within(limits?.headersTimeoutMs)}`);
  }
  if (code === 'UND_ERR_BODY_TIMEOUT') {
    return new OutboundError('timeout', `The answer from ${host} did not arrive${within(limits?.bodyTimeoutMs)}`);
  }
  if (code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE') {
    return new OutboundError('tooLarge', `The answer from ${host} is larger than allowed`);
  }
  const sentence = code === undefined ? undefined : networkSentences[code];
  if (sentence) {
    return new OutboundError('network', sentence(host));
  }
  if (code && /^(ERR_TLS_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|ERR_SSL_)/.test(code)) {
    return new OutboundError('network', `The secure connection to ${host} failed (${code})`);
  }
  const shownCode = code && /^[A-Z0-9_]{2,40}$/.test(code) ? ` (${code})` : '';

  return new OutboundError('network', `The request to ${host} failed${shownCode}`);
}

/** The limits the timeout messages name, so a tenant sees which one was hit. */
export type TimeoutLimits = { connectTimeoutMs: number; headersTimeoutMs: number; bodyTimeoutMs: number };
