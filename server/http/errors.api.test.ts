import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@/server/logger';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { filesModule } from '@/server/modules/files/files.module';
import { createApp } from '@/server/composition';

/** The error model of DECISIONS §3 and the wire rules of §2, through the whole middleware chain. */

let t: TestContext;
let admin: string;
let viewer: string;
beforeAll(async () => {
  t = await createTestContext();
  admin = (await t.actor('ADMIN')).token;
  viewer = (await t.actor('VIEWER')).token;
});
afterAll(() => t.close());

const ERROR_KEY = /^[a-zA-Z]+(\.[a-zA-Z]+)*\.error\.[a-zA-Z]+$/;

function expectError(res: { status: number; body: any; headers: Headers }, status: number, key?: string | RegExp) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/application\/json/);
  expect(res.body).toMatchObject({ status, key: expect.stringMatching(ERROR_KEY), message: expect.any(String) });
  expect(res.body.message.length).toBeGreaterThan(0);
  if (typeof key === 'string') expect(res.body.key).toBe(key);
  if (key instanceof RegExp) expect(res.body.key).toMatch(key);
  // Nothing else than the documented fields.
  expect(Object.keys(res.body).filter((k) => !['status', 'key', 'message', 'details'].includes(k))).toEqual([]);
}

describe('unknown routes', () => {
  it('answer 404 with the JSON error shape, for anonymous and signed-in callers', async () => {
    expectError(await t.request('GET', '/api/no-such-thing'), 404, 'request.error.notFound');
    expectError(await t.request('DELETE', '/api/v2/no/such/thing', { token: admin }), 404, 'request.error.notFound');
    expectError(await t.request('GET', '/public-api/nothing'), 404, 'request.error.notFound');
  });
});

describe('a known path asked with a method it does not have', () => {
  it.each([
    // [method, path, Allow]: the path's methods from the route table, HEAD with GET, whoever asks (no credentials are checked)
    ['DELETE', '/api/v2/user/me', 'GET, HEAD'],
    ['PATCH', '/api/customer/42', 'GET, HEAD, PUT, DELETE'],
    ['GET', '/oauth/token', 'POST'],
    ['POST', '/api/team/userAssignments/', 'GET, HEAD, PUT, DELETE'],
    ['POST', '/api/docs', 'GET, HEAD'],
    ['OPTIONS', '/healthz', 'GET, HEAD'],
  ])('%s %s answers 405 request.error.methodNotAllowed with Allow: %s', async (method, path, allow) => {
    for (const token of [undefined, admin]) {
      const res = await t.request(method, path, { token });
      expectError(res, 405, 'request.error.methodNotAllowed');
      expect(res.headers.get('allow')).toBe(allow);
      expect(res.body.details).toEqual({ allowed: allow.split(', ') });
    }
  });

  it('a HEAD on a path without GET is a 405 with no body; a HEAD on a GET path is answered', async () => {
    const head = await t.app.request('/oauth/token', { method: 'HEAD' });
    expect(head.status).toBe(405);
    expect(head.headers.get('allow')).toBe('POST');
    expect(await head.text()).toBe('');
    expect((await t.app.request('/healthz', { method: 'HEAD' })).status).toBe(200);
  });

  it("an unknown path stays 404, and so does a route's own not-found on a path it has", async () => {
    expectError(await t.request('PATCH', '/api/no-such-thing'), 404, 'request.error.notFound');
    expectError(await t.request('GET', '/api/docs/assets/package.json'), 404, 'request.error.notFound');
  });
});

describe('trailing slash (DECISIONS §2)', () => {
  it('/api/v2/user/me/ answers the same as /api/v2/user/me', async () => {
    const plain = await t.request('GET', '/api/v2/user/me', { token: viewer });
    const slash = await t.request('GET', '/api/v2/user/me/', { token: viewer });
    expect(plain.status).toBe(200);
    expect(slash.status).toBe(200);
    expect(slash.body).toEqual(plain.body);
  });

  it('works with a query string and for writes', async () => {
    const list = await t.request('GET', '/api/v2/user/?size=1&select=id', { token: admin });
    expect(list.status).toBe(200);
    expect(list.body.size).toBe(1);
    const created = await t.request('POST', '/api/customer/', { token: admin, json: { name: `Slash ${Date.now()}` } });
    expect(created.status).toBe(201);
  });

  it('still refuses anonymous callers on the slashed path', async () => {
    const res = await t.request('GET', '/api/v2/user/me/');
    expectError(res, 401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });
});

describe('invalid bodies on POST /api/customer', () => {
  async function raw(body: string, contentType?: string) {
    const res = await t.app.request('/api/customer', {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, ...(contentType ? { 'content-type': contentType } : {}) },
      body,
    });

    return { status: res.status, headers: res.headers, body: await res.json() };
  }

  it('malformed JSON → 400 request.error.invalid', async () => {
    const res = await raw('{"name":', 'application/json');
    expectError(res, 400, 'request.error.invalid');
    expect(res.body.message).toMatch(/JSON/i);
  });

  it('a schema violation → 400 request.error.invalid naming each offending field', async () => {
    const res = await t.request('POST', '/api/customer', { token: admin, json: { name: '', licenseTier: 'GOLD' } });
    expectError(res, 400, 'request.error.invalid');
    expect(res.body.details.target).toBe('json');
    const paths = (res.body.details.issues as { path: string; message: string }[]).map((i) => i.path);
    expect(paths).toEqual(expect.arrayContaining(['name', 'licenseTier']));
  });

  it('a missing required field → 400 naming it', async () => {
    const res = await t.request('POST', '/api/customer', { token: admin, json: { comment: 'no name' } });
    expectError(res, 400, 'request.error.invalid');
    expect(res.body.details.issues.map((i: { path: string }) => i.path)).toContain('name');
  });

  it('a wrong media type → 415', async () => {
    expectError(await raw('{"name":"Text body"}', 'text/plain'), 415, 'request.error.unsupportedMediaType');
  });
});

describe('bad list parameters on GET /api/v2/user', () => {
  const get = (query: string) => t.request('GET', `/api/v2/user?${query}`, { token: admin });

  it.each([
    ['(name:a', 'search.error.syntax', 7],
    ['name:a)', 'search.error.syntax', 6],
    ['name', 'search.error.syntax', 4],
    ['name:a,role:NOPE', 'search.error.invalidValue', 7],
    ['nope:1', 'search.error.unknownField', 0],
    ['name>x', 'search.error.invalidOperator', 0],
  ])('search=%s → 400 %s at position %i', async (search, key, position) => {
    const res = await get(`search=${encodeURIComponent(search)}`);
    expectError(res, 400, key);
    expect(res.body.details.position).toBe(position);
  });

  it.each([
    ['select=nope', 'select.error.unknownField'],
    ['select=passwordHash', 'select.error.unknownField'],
    ['select=customer(nope)', 'select.error.unknownField'],
    ['select=id,(', /^select\.error\./],
    ['sort=nope,asc', 'sort.error.unknownField'],
    ['sort=name,up', 'sort.error.invalidDirection'],
    ['page=-1', 'paging.error.invalid'],
    ['page=abc', 'paging.error.invalid'],
    ['size=0', 'paging.error.invalid'],
    ['size=1001', 'paging.error.invalid'],
    ['customerId=abc', 'request.error.invalid'],
  ] as const)('%s → 400 %s', async (query, key) => {
    expectError(await get(query), 400, key);
  });

  it('the limits themselves are accepted: size=1000, page=0, size=1', async () => {
    expect((await get('size=1000')).status).toBe(200);
    expect((await get('page=0&size=1')).status).toBe(200);
  });
});

describe('conflicts', () => {
  it('a duplicate customer name → 409 customer.error.nameExists', async () => {
    const name = `Duplicate ${Date.now()}`;
    expect((await t.request('POST', '/api/customer', { token: admin, json: { name } })).status).toBe(201);
    const res = await t.request('POST', '/api/customer', { token: admin, json: { name } });
    expectError(res, 409, 'customer.error.nameExists');
    expect(res.body.message).toContain(name);
  });
});

describe('internal errors', () => {
  it('answer 500 server.error.internal without stack, SQL or the original message', async () => {
    const secret = 'select password_hash from app_user where secret_column = 42';
    const broken = new Proxy(
      {},
      {
        get() {
          throw new Error(`relation "hidden_table" does not exist: ${secret}`);
        },
      },
    );
    const app = createApp({
      db: broken as never,
      config: t.config,
      storage: t.storage,
      log: createLogger('silent'),
      ready: async () => true,
    });
    const res = await app.request('/api/v2/user/me', {
      headers: { authorization: `Bearer ${'A'.repeat(43)}`, 'x-request-id': 'trace-500' },
    });
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ status: 500, key: 'server.error.internal', message: 'Internal server error' });
    expect(text).not.toMatch(/hidden_table|password_hash|secret|select |at .*\.ts|stack/i);
    // The request id still lets an operator find the logged error.
    expect(res.headers.get('x-request-id')).toBe('trace-500');
  });

  it('/readyz answers 503 (not 500) when the readiness check throws', async () => {
    const app = createApp({
      db: t.db,
      config: t.config,
      storage: t.storage,
      log: createLogger('silent'),
      ready: async () => {
        throw new Error('database down');
      },
    });
    const res = await app.request('/readyz');
    expect(res.status).toBe(503);
    // The cause is not repeated: it may name hosts or users.
    expect(await res.json()).toEqual({ status: 503, key: 'server.error.unavailable', message: 'Not ready' });
  });
});

describe('while the server starts', () => {
  it('answers 503 with Retry-After to every route but the health checks, until it has started', async () => {
    let starting = true;
    const app = createApp({
      db: t.db,
      config: t.config,
      storage: t.storage,
      log: createLogger('silent'),
      ready: async () => !starting,
      starting: () => starting,
    });
    for (const [method, path] of [
      ['POST', '/oauth/token'],
      ['GET', '/api/v2/user/me'],
      ['GET', '/api/display/manifest'],
      ['POST', '/public-api/display/register'],
      ['GET', '/api/nope'],
    ] as const) {
      const res = await app.request(path, { method });
      expect(res.status, path).toBe(503);
      expect(res.headers.get('retry-after'), path).toBe('5');
      expect(await res.json(), path).toMatchObject({ status: 503, key: 'server.error.unavailable' });
    }
    expect((await app.request('/healthz')).status).toBe(200);
    expect((await app.request('/healthz/')).status).toBe(200);
    expect((await app.request('/readyz')).status).toBe(503);
    starting = false;
    expect((await app.request('/api/v2/user/me')).status).toBe(401);
    expect((await app.request('/readyz')).status).toBe(200);
  });
});

describe('X-Request-Id', () => {
  it('echoes a well-formed caller id on success and on errors', async () => {
    for (const [method, path, token] of [
      ['GET', '/api/v2/user/me', viewer],
      ['GET', '/api/v2/user', undefined],
      ['GET', '/api/nope', undefined],
      ['GET', '/api/v2/user?size=0', admin],
    ] as const) {
      const res = await t.request(method, path, { token, headers: { 'x-request-id': 'client-trace.42_a' } });
      expect(res.headers.get('x-request-id'), `${method} ${path}`).toBe('client-trace.42_a');
    }
  });

  it('generates a fresh id when none or a malformed one is sent', async () => {
    const none = await t.request('GET', '/healthz');
    const bad = await t.request('GET', '/healthz', { headers: { 'x-request-id': 'has spaces <script>' } });
    const long = await t.request('GET', '/healthz', { headers: { 'x-request-id': 'x'.repeat(65) } });
    const ids = [none, bad, long].map((r) => r.headers.get('x-request-id'));
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(3);
  });
});

describe('data exceptions of the database', () => {
  it('answer 400, not 500: a file valid until a year of six digits, which PostgreSQL cannot read back', async () => {
    const { user, token } = await t.actor('EDITOR');
    const fileId = await filesModule.sweep!.file!(t.db, user.customerId);
    const res = await t.request('PUT', `/api/file/${fileId}`, { token, json: { validTo: 7_420_520_159_604_867 } });
    expectError(res, 400);
  });
});
