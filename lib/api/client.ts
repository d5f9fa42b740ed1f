import createClient from 'openapi-fetch';
import type { paths } from '@/lib/api/generated/openapi';
import type { ApiErrorBody } from '@/lib/api/types';
import { markSigningOut, signingOut } from '@/lib/auth/sign-out-flag';

export class ApiError extends Error {
  readonly status: number;
  readonly key: string;
  readonly details?: Record<string, unknown>;

  constructor(body: ApiErrorBody) {
    super(body.message);
    this.name = 'ApiError';
    this.status = body.status;
    this.key = body.key;
    this.details = body.details;
  }
}

export type QueryValue = string | number | boolean | null | undefined | ReadonlyArray<string | number>;

export type ApiRequest = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** The tenant selector; omitted (global for ADMIN) when null or undefined. */
  customerId?: number | null;
  signal?: AbortSignal;
  /** Extra request headers, e.g. `x-totp` for a protected operation. */
  headers?: Record<string, string>;
};

/** Encodes like encodeURIComponent, so a space is %20 and never '+'. Repeated keys for arrays (sort). */
export function buildQuery(query: Record<string, QueryValue>): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(v))}`);
  }

  return parts.length ? `?${parts.join('&')}` : '';
}

type Transport = {
  fetch: (request: Request) => Promise<Response>;
  /** Lets next-auth refresh the tokens in the session cookie; resolves to whether a session remains. */
  refreshSession: () => Promise<boolean>;
  onUnauthenticated: () => void;
};

let refreshing: Promise<boolean> | null = null;

async function defaultRefreshSession(): Promise<boolean> {
  // Parallel 401s share one refresh so the refresh token is exchanged once.
  refreshing ??= fetch('/api/auth/session', { credentials: 'same-origin', cache: 'no-store' })
    .then(async (res) => {
      if (!res.ok) return false;
      const session = (await res.json().catch(() => null)) as { user?: unknown; error?: string } | null;

      return Boolean(session?.user) && !session?.error;
    })
    .catch(() => false)
    .finally(() => {
      refreshing = null;
    });

  return refreshing;
}

function defaultOnUnauthenticated(): void {
  if (typeof window === 'undefined' || signingOut()) return;
  markSigningOut();
  const back = window.location.pathname + window.location.search;
  // The API refused the tokens behind a cookie next-auth still holds (revoked elsewhere): drop the
  // cookie too, or the login page would send the user straight back here.
  void import('next-auth/react').then(({ signOut }) =>
    signOut({ callbackUrl: `/login?reason=expired&callbackUrl=${encodeURIComponent(back)}` }),
  );
}

const transport: Transport = {
  fetch: (request) => fetch(request),
  refreshSession: defaultRefreshSession,
  onUnauthenticated: defaultOnUnauthenticated,
};

/** For tests: swap the network and session behaviour. */
export function configureApiTransport(overrides: Partial<Transport>): () => void {
  const previous = { ...transport };
  Object.assign(transport, overrides);

  return () => Object.assign(transport, previous);
}

async function toApiError(res: Response): Promise<ApiError> {
  const body = (await res.json().catch(() => null)) as Partial<ApiErrorBody> | null;

  return new ApiError({
    status: typeof body?.status === 'number' ? body.status : res.status,
    key: typeof body?.key === 'string' ? body.key : `http.error.${res.status}`,
    message: typeof body?.message === 'string' ? body.message : res.statusText || `Request failed (${res.status})`,
    details: body?.details,
  });
}

/**
 * Sends one request of the signage API and answers its response when it is a success; every other answer
 * is thrown as an `ApiError`. The session cookie authenticates; the browser never holds a token. A 401
 * gives next-auth one chance to refresh the tokens behind the cookie, then the request is sent once more.
 */
async function send(request: Request): Promise<Response> {
  // The retry needs the body again: a request's body can be read once.
  const retry = request.clone();
  let res = await transport.fetch(request);
  if (res.status === 401) {
    const hasSession = await transport.refreshSession();
    if (hasSession) res = await transport.fetch(retry);
    if (res.status === 401) {
      const error = await toApiError(res);
      transport.onUnauthenticated();
      throw error;
    }
  }
  if (!res.ok) throw await toApiError(res);

  return res;
}

/** Where the API is: the console's own origin (a relative URL cannot make a `Request` outside a browser). */
function apiOrigin(): string {
  return typeof window === 'undefined' ? 'http://localhost' : window.location.origin;
}

/**
 * The console's API client, typed from the OpenAPI document (lib/api/generated/openapi.d.ts, regenerated by
 * `npm run openapi:client`): an operation is named by its method and path template, and its parameters, body and
 * answer are the document's. Every answer but a success is thrown as `ApiError` (see `send`), so `ok(api.GET(…))`
 * gives the success body.
 */
export const api = createClient<paths>({
  baseUrl: apiOrigin(),
  fetch: send,
  headers: { Accept: 'application/json' },
  credentials: 'same-origin',
  // Repeated keys for arrays (sort), a space as %20, and no empty parameters: as the API's own tests send them.
  querySerializer: (query) => buildQuery(query as Record<string, QueryValue>).slice(1),
});

/** A type carried as a value (`as<Campaign>()`), so a call can name it while the compiler still infers the rest. */
export type TypeToken<T> = { readonly type?: T };
export function as<T>(): TypeToken<T> {
  return {};
}

/**
 * The success body of a call of `api` (its failures were thrown as `ApiError` before it returns), typed as the
 * document declares it. With `as<T>()`, typed as the console's `T` instead, which the compiler checks is a valid
 * answer of the operation: the document declares every field of a projected resource optional (a `select` may
 * leave it out), while the console's type (the server schema's) says what the default projection always answers.
 */
export async function ok<D, T extends D = D>(call: Promise<{ data?: D }>, _type?: TypeToken<T>): Promise<T> {
  return (await call).data as T;
}

/** The tenant selector of a request: nothing for the caller's own tenant (and everything for ADMIN). */
export function tenantQuery(customerId: number | null | undefined): { customerId?: number } {
  return customerId === undefined || customerId === null ? {} : { customerId };
}

async function apiResponse(path: string, request: ApiRequest, accept: string): Promise<Response> {
  const { method = 'GET', query = {}, body, customerId, signal, headers = {} } = request;
  // An explicit `customerId` option wins; otherwise one given in `query` stays.
  const url = `${apiOrigin()}${path}${buildQuery(customerId === undefined || customerId === null ? query : { ...query, customerId })}`;
  // A FormData body (multipart upload) goes as is: the browser sets the boundary in Content-Type.
  const isForm = typeof FormData !== 'undefined' && body instanceof FormData;

  return send(
    new Request(url, {
      method,
      credentials: 'same-origin',
      signal,
      headers: {
        Accept: accept,
        ...(body === undefined || isForm ? {} : { 'Content-Type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : isForm ? (body as FormData) : JSON.stringify(body),
    }),
  );
}

/** Calls the signage API from the browser (see `apiResponse`) and answers the JSON body. */
export async function apiFetch<T>(path: string, request: ApiRequest = {}): Promise<T> {
  const res = await apiResponse(path, request, 'application/json');
  if (res.status === 204) return undefined as T;
  const text = await res.text();

  return (text ? JSON.parse(text) : undefined) as T;
}

/** The paths whose GET answers a CSV: the exports `apiDownload` saves. */
export type CsvPath = { [P in keyof paths]: paths[P] extends { get: { responses: { 200: { content: { 'text/csv': unknown } } } } } ? P : never }[keyof paths];
/** A CSV export's path and query parameters, as the document declares them. */
type CsvParams<P extends CsvPath> = paths[P] extends { get: { parameters: infer R } } ? Pick<R, 'path' & keyof R> & Pick<R, 'query' & keyof R> : never;

/**
 * Downloads an export (a CSV operation of the document, by its path template and parameters) the way the API is
 * called, authenticated, and saves it under the name the server gives in Content-Disposition, else `fallbackName`.
 * Errors come as `ApiError`, as from `api`.
 */
export async function apiDownload<P extends CsvPath>(path: P, params: CsvParams<P>, fallbackName: string): Promise<void> {
  // The path and its parameters were checked against the document by the signature; `api.GET` cannot type a call
  // over a path that is still generic, so it is called through this one wider view of it.
  const get = api.GET as (path: CsvPath, init: { params: unknown; parseAs: 'blob'; headers: Record<string, string> }) => Promise<{ data?: Blob; response: Response }>;
  const { data, response: res } = await get(path, { params, parseAs: 'blob', headers: { Accept: '*/*' } });
  // An empty answer is saved as an empty file, as the browser would.
  const blob = data ?? new Blob([]);
  const disposition = res.headers.get('content-disposition') ?? '';
  const named = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition)?.[1];
  const url = URL.createObjectURL(blob);
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = named ? decodeURIComponent(named) : fallbackName;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // The click has handed the blob to the download; a later revoke keeps slow browsers safe.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}
