import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiFetch, buildQuery, configureApiTransport } from '@/lib/api/client';

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

let restore: (() => void) | undefined;
afterEach(() => restore?.());

describe('apiFetch', () => {
  it('sends same-origin credentials, the tenant selector and the query', async () => {
    const fetchMock = vi.fn(async () => json(200, { ok: true }));
    restore = configureApiTransport({ fetch: fetchMock as typeof fetch });

    await apiFetch('/api/v2/user', { query: { page: 0, size: 20, sort: 'name,asc', search: undefined }, customerId: 7 });

    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/v2/user?page=0&size=20&sort=name%2Casc&customerId=7');
    expect(init.credentials).toBe('same-origin');
  });

  it('refreshes the session once on 401 and retries once', async () => {
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(json(401, { status: 401, key: 'auth.error.unauthorized', message: 'expired' }))
      .mockResolvedValueOnce(json(200, { id: 1 }));
    const refreshSession = vi.fn(async () => true);
    const onUnauthenticated = vi.fn();
    restore = configureApiTransport({ fetch: fetchMock as typeof fetch, refreshSession, onUnauthenticated });

    await expect(apiFetch<{ id: number }>('/api/x')).resolves.toEqual({ id: 1 });
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

    const error = await apiFetch('/api/x').catch((e: unknown) => e);
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

    await expect(apiFetch('/api/x')).rejects.toBeInstanceOf(ApiError);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(onUnauthenticated).toHaveBeenCalledTimes(1);
  });

  it('throws a typed error with the API error body', async () => {
    const fetchMock = vi.fn(async () =>
      json(400, { status: 400, key: 'search.error.unknownField', message: 'Unknown field', details: { position: 3 } }),
    );
    restore = configureApiTransport({ fetch: fetchMock as typeof fetch });

    const error = (await apiFetch('/api/x').catch((e: unknown) => e)) as ApiError;
    expect(error).toMatchObject({ status: 400, key: 'search.error.unknownField', message: 'Unknown field' });
    expect(error.details).toEqual({ position: 3 });
  });

  it('copes with a non-JSON error body', async () => {
    const fetchMock = vi.fn(async () => new Response('Bad gateway', { status: 502, statusText: 'Bad Gateway' }));
    restore = configureApiTransport({ fetch: fetchMock as typeof fetch });

    await expect(apiFetch('/api/x')).rejects.toMatchObject({ status: 502, key: 'http.error.502' });
  });

  it('sends a JSON body on writes', async () => {
    const fetchMock = vi.fn(async () => json(201, { id: 3, name: 'Acme' }));
    restore = configureApiTransport({ fetch: fetchMock as typeof fetch });

    await apiFetch('/api/customer', { method: 'POST', body: { name: 'Acme' } });
    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(init.method).toBe('POST');
    expect(init.body).toBe('{"name":"Acme"}');
    expect((init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
  });
});

describe('buildQuery', () => {
  it('skips empty values and repeats array keys', () => {
    expect(buildQuery({ a: '', b: null, c: undefined, sort: ['name,asc', 'id,desc'] })).toBe(
      '?sort=name%2Casc&sort=id%2Cdesc',
    );
    expect(buildQuery({})).toBe('');
    expect(buildQuery({ q: 'a b' })).toBe('?q=a%20b');
  });
});

describe('apiFetch headers and bodies', () => {
  it('adds extra headers such as x-totp', async () => {
    const fetchMock = vi.fn(async () => json(200, {}));
    restore = configureApiTransport({ fetch: fetchMock as typeof fetch });

    await apiFetch('/api/user/', { method: 'DELETE', headers: { 'x-totp': '123456' } });

    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect((init.headers as Record<string, string>)['x-totp']).toBe('123456');
  });

  it('sends FormData as is, without a JSON content type', async () => {
    const fetchMock = vi.fn(async () => json(200, {}));
    restore = configureApiTransport({ fetch: fetchMock as typeof fetch });
    const form = new FormData();
    form.append('file', new Blob(['x'], { type: 'image/png' }), 'a.png');

    await apiFetch('/api/v2/user/profilePicture', { method: 'POST', body: form });

    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(init.body).toBe(form);
    expect((init.headers as Record<string, string>)['Content-Type']).toBeUndefined();
  });
});
