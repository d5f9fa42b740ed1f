import type { Readable } from 'node:stream';

export type OutboundLimits = {
  /** Body cap in bytes, after decompression; exceeding it is an OutboundError 'tooLarge'. */
  maxBytes: number;
  /** 3 for datasources; 0 for notifications, when a 3xx is answered as a response and not followed. */
  maxRedirects: number;
  /** Name lookup and connection (TLS included); default 5 000. */
  connectTimeoutMs?: number;
  /** From the request sent to the response headers; default 10 000. */
  headersTimeoutMs?: number;
  /** The whole body, not the idle time between chunks; default 30 000. */
  bodyTimeoutMs?: number;
};

export type OutboundRequest = {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Sent as If-None-Match / If-Modified-Since. */
  validators?: { etag?: string; lastModified?: string };
};

export type OutboundResponse = {
  status: number;
  /** The URL that answered, after redirects. */
  finalUrl: string;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** Decoded (gzip, deflate, br): Content-Encoding and Content-Length are then left out of `headers`. */
  body: Buffer;
  /** A 304: the body is empty. */
  notModified: boolean;
  /** From ETag / Last-Modified; on a 304 without them, the request's own. */
  validators: { etag?: string; lastModified?: string };
};

/** The body is capped and timed: it errors with OutboundError 'tooLarge' or 'timeout' mid-stream. */
export type OutboundStream = Omit<OutboundResponse, 'body'> & { body: Readable };

export type OutboundClient = {
  fetch(request: OutboundRequest, limits: OutboundLimits): Promise<OutboundResponse>;
  /** For large files (FILE_FROM_URL): the caller pipes the body to storage, or destroys it. */
  stream(request: OutboundRequest, limits: OutboundLimits): Promise<OutboundStream>;
  /** Stops every request in flight (they fail with 'network'); later calls fail too. */
  close(): Promise<void>;
};

export type Resolver = (hostname: string) => Promise<Array<{ address: string; family: 4 | 6 }>>;

export type SettledLimits = Required<OutboundLimits>;
