import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, apiDownload, ApiError, buildQuery, configureApiTransport, ok, tenantQuery } from '@/lib/api/client';

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

let restore: (() => void) | undefined;
afterEach(() => restore?.());

describe('the typed client', () => {
  it('sends same-origin credentials, the tenant selector and the query', async () => {
    const fetchMock = vi.fn(async () => json(200, { ok: true }));
    restore = configureApiTransport({ fetch: fetchMock as typeof fetch });

    await ok(api.GET('/api/v2/user', { params: { query: { page: 0, size: 20, sort: 'name,asc', search: undefined, ...tenantQuery(7) } } }));

    const [request] = fetchMock.mock.calls[0] as unknown as [Request];
    expect(request.url).toBe('http://localhost/api/v2/user?page=0&size=20&sort=name%2Casc&customerId=7');
    expect(request.credentials).toBe('same-origin');
  });

  it('sends the body again when it retries after a refresh', async () => {
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(json(401, { status: 401, key: 'auth.error.unauthorized', message: 'expired' }))
      .mockResolvedValueOnce(json(201, { id: 3 }));
    restore = configureApiTransport({ fetch: fetchMock as typeof fetch, refreshSession: async () => true });

    await ok(api.POST('/api/customer', { body: { name: 'Acme' } as never }));
    const [retried] = fetchMock.mock.calls[1] as unknown as [Request];
    expect(await retried.text()).toBe('{"name":"Acme"}');
  });

  it('refreshes the session once on 401 and retries once', async () => {
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(json(401, { status: 401, key: 'auth.error.unauthorized', message: 'expired' }))
      .mockResolvedValueOnce(json(200, { id: 1 }));
    const refreshSession = vi.fn(async () => true);
    const onUnauthenticated = vi.fn();
    restore = configureApiTransport({ fetch: fetchMock as typeof fetch, refreshSession, onUnauthenticated });

    await expect(ok(api.GET('/api/v2/user/me'))).resolves.toEqual({ id: 1 });
    expect(refreshSession).toHaveBeenCalledTimes(1);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(onUnauthenticated).not.toHaveBeenCalled();
  });

  it('gives up after one retry and reports the lost session', async () => {
    const unauthorized = () => json(401, { status: 401, key: 'auth.error.unauthorized', message: 'revoked' });
    const fetchMock = vi.fn(async () => unauthorized());
    const refreshSession = vi.fn(async () => true);
    const onUnauthenticated = vi.fn();
    restore = configureApiTransport({ fetch: fetchMock as typeof fetch, refreshSession, onUnauthenticated });

    const error = await ok(api.GET('/api/v2/user/me')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(401);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(refreshSession).toHaveBeenCalledTimes(1);
    expect(onUnauthenticated).toHaveBeenCalledTimes(1);
  });

  it('does not retry when no session remains', async () => {
    const fetchMock = vi.fn(async () => json(401, { status: 401, key: 'auth.error.unauthorized', message: 'no' }));
    const onUnauthenticated = vi.fn();
    restore = configureApiTransport({
      fetch: fetchMock as typeof fetch,
      refreshSession: async () => false,
      onUnauthenticated,
    });

    await expect(ok(api.GET('/api/v2/user/me'))).rejects.toBeInstanceOf(ApiError);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(onUnauthenticated).toHaveBeenCalledTimes(1);
  });

  it('throws a typed error with the API error body', async () => {
    const fetchMock = vi.fn(async () =>
      json(400, { status: 400, key: 'search.error.unknownField', message: 'Unknown field', details: { position: 3 } }),
    );
    restore = configureApiTransport({ fetch: fetchMock as typeof fetch });

    const error = (await ok(api.GET('/api/v2/user/me')).catch((e: unknown) => e)) as ApiError;
    expect(error).toMatchObject({ status: 400, key: 'search.error.unknownField', message: 'Unknown field' });
    expect(error.details).toEqual({ position: 3 });
  });

  it('copes with a non-JSON error body', async () => {
    const fetchMock = vi.fn(async () => new Response('Bad gateway', { status: 502, statusText: 'Bad Gateway' }));
    restore = configureApiTransport({ fetch: fetchMock as typeof fetch });

    await expect(ok(api.GET('/api/v2/user/me'))).rejects.toMatchObject({ status: 502, key: 'http.error.502' });
  });

  it('sends a JSON body on writes', async () => {
    const fetchMock = vi.fn(async () => json(201, { id: 3, name: 'Acme' }));
    restore = configureApiTransport({ fetch: fetchMock as typeof fetch });

    await ok(api.POST('/api/customer', { body: { name: 'Acme' } as never }));
    const [request] = fetchMock.mock.calls[0] as unknown as [Request];
    expect(request.method).toBe('POST');
    expect(await request.text()).toBe('{"name":"Acme"}');
    expect(request.headers.get('Content-Type')).toBe('application/json');
  });
});

describe('buildQuery', () => {
  it('skips empty values and repeats array keys', () => {
    expect(buildQuery({ a: '', b: null, c: undefined, sort: ['name,asc', 'id,desc'] })).toBe('?sort=name%2Casc&sort=id%2Cdesc');
    expect(buildQuery({})).toBe('');
    expect(buildQuery({ q: 'a b' })).toBe('?q=a%20b');
  });
});

describe('headers and bodies', () => {
  it('adds extra headers such as x-totp', async () => {
    const fetchMock = vi.fn(async () => json(200, {}));
    restore = configureApiTransport({ fetch: fetchMock as typeof fetch });

    await ok(api.DELETE('/api/user', { params: { query: { email: 'a@example.com' } }, headers: { 'x-totp': '123456' } }));

    const [request] = fetchMock.mock.calls[0] as unknown as [Request];
    expect(request.headers.get('x-totp')).toBe('123456');
  });

  it('sends FormData as is, without a JSON content type', async () => {
    const fetchMock = vi.fn(async () => json(200, {}));
    restore = configureApiTransport({ fetch: fetchMock as typeof fetch });
    const form = new FormData();
    form.append('file', new Blob(['x'], { type: 'image/png' }), 'a.png');

    await ok(api.POST('/api/v2/user/profilePicture', { body: form as never }));

    const [request] = fetchMock.mock.calls[0] as unknown as [Request];
    // The browser (here undici) sets the multipart boundary itself.
    expect(request.headers.get('Content-Type')).toMatch(/^multipart\/form-data; boundary=/);
    expect((await request.formData()).get('file')).toBeInstanceOf(Blob);
  });
});

describe('apiDownload', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('reads a CSV operation by its path template and saves the file under the name the server gives', async () => {
    const csv = () =>
      new Response('a,b\r\n', {
        status: 200,
        headers: { 'Content-Type': 'text/csv', 'Content-Disposition': 'attachment; filename="plays.csv"' },
      });
    const fetchMock = vi.fn(async () => csv());
    restore = configureApiTransport({ fetch: fetchMock as typeof fetch });
    const link = { href: '', download: '', click: vi.fn(), remove: vi.fn() };
    vi.stubGlobal('document', { createElement: () => link, body: { append: vi.fn() } });

    await apiDownload(
      '/api/v2/proof-of-display/campaign/{campaignId}/csv',
      { path: { campaignId: 42 }, query: { customerId: 7, from: 1, timeZone: 'UTC' } },
      'fallback.csv',
    );

    const [request] = fetchMock.mock.calls[0] as unknown as [Request];
    expect(request.url).toBe('http://localhost/api/v2/proof-of-display/campaign/42/csv?customerId=7&from=1&timeZone=UTC');
    expect(request.headers.get('accept')).toBe('*/*');
    expect(link.download).toBe('plays.csv');
    expect(link.click).toHaveBeenCalledTimes(1);
  });

  it('takes the CSV operations of the document only (checked by the compiler)', () => {
    const jsonReport = () =>
      // @ts-expect-error: the JSON report is not an export
      apiDownload('/api/v2/proof-of-display/campaign/all', { query: { customerId: 7, from: 1, timeZone: 'UTC' } }, 'report.csv');
    const missingParameter = () =>
      apiDownload(
        '/api/v2/proof-of-display/campaign/{campaignId}/csv',
        // @ts-expect-error: the export's path parameter is required
        { query: { customerId: 7, from: 1, timeZone: 'UTC' } },
        'report.csv',
      );
    expect([jsonReport, missingParameter]).toHaveLength(2);
  });
});
