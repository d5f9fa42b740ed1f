import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, createTestContext, TEST_CLIENT_SECRET, type TestContext } from '@/server/test/harness';
import { MAX_JSON_DEPTH } from './hostile-input';
import { rawExchange } from './raw-http.test-kit';
import { DEFAULT_BODY_LIMIT } from './request-input';

/**
 * The shared request layer (issue 10 points 3 and 4): every declared route has a body limit, enforced
 * from Content-Length before reading and while reading; NUL characters and deep nesting are refused at
 * validation, wherever they come in.
 */

const MiB = 1024 * 1024;
let t: TestContext;
let base: string;
let owner: string;

beforeAll(async () => {
  t = await createTestContext();
  base = await t.listen();
  owner = (await t.actor('OWNER')).token;
});
afterAll(() => t.close());

const tokenHeaders = { authorization: basic('default-client', TEST_CLIENT_SECRET), 'content-type': 'application/x-www-form-urlencoded' };

async function send(
  method: string,
  path: string,
  init: { headers?: Record<string, string>; body?: string | Uint8Array | ReadableStream<Uint8Array> } = {},
) {
  const res = await t.app.request(path, { method, headers: init.headers, body: init.body as BodyInit, duplex: 'half' } as RequestInit);
  const text = await res.text();
  let body: Record<string, unknown> | string = text;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // not JSON
  }

  return { status: res.status, headers: res.headers, body: body as Record<string, any> };
}

/** A body of `size` bytes in pieces, without a length (the chunked case). */
function streamOf(size: number, piece = 64 * 1024): ReadableStream<Uint8Array> {
  let sent = 0;

  return new ReadableStream({
    pull(controller) {
      if (sent >= size) return controller.close();
      const n = Math.min(piece, size - sent);
      sent += n;
      controller.enqueue(new Uint8Array(n).fill(0x61));
    },
  });
}

describe('body limit from Content-Length (413 before reading)', () => {
  it('refuses a declared 300 MB body to /oauth/token and /public-api/user/passwordSetup without reading it', async () => {
    for (const [path, type] of [
      ['/oauth/token', 'application/x-www-form-urlencoded'],
      ['/public-api/user/passwordSetup', 'application/json'],
    ] as const) {
      // The declared length is a lie: a body read to its end would not be refused as too large.
      const res = await send('POST', path, { headers: { 'content-type': type, 'content-length': String(300 * MiB) }, body: '{}' });
      expect(res.status, path).toBe(413);
      expect(res.body).toMatchObject({ status: 413, key: 'request.error.payloadTooLarge', details: { maxBytes: DEFAULT_BODY_LIMIT } });
    }
  });

  it('answers 413 before authentication, and accepts a body at the limit', async () => {
    const anonymous = await send('POST', '/api/team', {
      headers: { 'content-type': 'application/json', 'content-length': String(DEFAULT_BODY_LIMIT + 1) },
      body: '{}',
    });
    expect(anonymous.status).toBe(413);
    const atLimit = JSON.stringify({ name: 'Big comment team', comment: 'x'.repeat(DEFAULT_BODY_LIMIT - 60) });
    expect(atLimit.length).toBeLessThanOrEqual(DEFAULT_BODY_LIMIT);
    const res = await send('POST', '/api/team', {
      headers: { authorization: `Bearer ${owner}`, 'content-type': 'application/json', 'content-length': String(atLimit.length) },
      body: atLimit,
    });
    expect(res.status).not.toBe(413);
  });

  it('keeps the route’s own limit: a profile picture body may pass 1 MiB', async () => {
    const res = await send('POST', '/api/v2/user/profilePicture', {
      headers: { authorization: `Bearer ${owner}`, 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(3 * MiB) },
      body: '--x--',
    });
    expect(res.status).toBe(413);
    expect(res.body.details.maxBytes).toBeGreaterThan(2 * MiB);
  });
});

describe('body limit while reading (no Content-Length)', () => {
  it('refuses a chunked body past the limit with 413 (app.request)', async () => {
    const res = await send('POST', '/public-api/user/passwordSetup', {
      headers: { 'content-type': 'application/json' },
      body: streamOf(DEFAULT_BODY_LIMIT + 1),
    });
    expect(res.status).toBe(413);
    expect(res.body.key).toBe('request.error.payloadTooLarge');
  });

  it('answers a chunked 300 MB /oauth/token body (no valid client) with 413 long before its end, and stops reading it', async () => {
    const res = await rawExchange(base, {
      head: 'POST /oauth/token HTTP/1.1\r\nHost: test\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked',
      chunked: true,
      total: 300 * MiB,
      mode: 'keepSending',
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({ key: 'request.error.payloadTooLarge' });
    // The answer came after the limit and a bounded drain, not after the body.
    expect(res.sentAtAnswer).toBeGreaterThan(DEFAULT_BODY_LIMIT);
    expect(res.sentAtAnswer).toBeLessThan(40 * MiB);
    // The connection is closed: the server stopped reading well before the 300 MB.
    expect(res.headers.connection).toBe('close');
    expect(res.closedByServer).toBe(true);
    expect(res.error).toBeDefined();
    expect(res.sent).toBeLessThan(150 * MiB);
  });

  it('answers a chunked 300 MB /public-api/user/passwordSetup body with 413 before its end', async () => {
    const res = await rawExchange(base, {
      head: 'POST /public-api/user/passwordSetup HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked',
      chunked: true,
      total: 300 * MiB,
      mode: 'stopOnAnswer',
    });
    expect(res.status).toBe(413);
    expect(res.sentAtAnswer).toBeLessThan(40 * MiB);
  });

  it('serves a normal form body over the listener (the buffered copy reaches the validators)', async () => {
    const res = await fetch(`${base}/oauth/token`, {
      method: 'POST',
      headers: tokenHeaders,
      body: 'grant_type=password&username=nobody%40example.com&password=x',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'invalid_grant', error_description: 'Bad credentials' });
  });
});

describe('NUL characters (U+0000) are a 400 at validation', () => {
  it('in a query value: GET /api/v2/log/csv?search=a%00b answers 400, not a 200 that is cut', async () => {
    const res = await fetch(`${base}/api/v2/log/csv?search=a%00b`, { headers: { authorization: `Bearer ${owner}` } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      status: 400,
      key: 'request.error.nulCharacter',
      details: { target: 'query', path: 'search' },
    });
    const keyword = await send('GET', '/api/tag/suggest?keyword=%00', { headers: { authorization: `Bearer ${owner}` } });
    expect(keyword.body).toMatchObject({ key: 'request.error.nulCharacter', details: { target: 'query', path: 'keyword' } });
    const key = await send('GET', '/api/v2/file?a%00=1', { headers: { authorization: `Bearer ${owner}` } });
    expect(key.body).toMatchObject({ key: 'request.error.nulCharacter', details: { target: 'query' } });
  });

  it('in a path parameter', async () => {
    const res = await send('GET', '/api/v2/user/a%00b', { headers: { authorization: `Bearer ${owner}` } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ key: 'request.error.nulCharacter', details: { target: 'param', path: 'id' } });
  });

  it('in JSON bodies: values and keys at any depth', async () => {
    const headers = { authorization: `Bearer ${owner}`, 'content-type': 'application/json' };
    const cases: Array<[string, string, unknown, string]> = [
      ['POST', '/api/team', { name: 'a\u0000b' }, 'name'],
      ['POST', '/api/team', { name: 'ok', ['comm\u0000ent']: 'x' }, 'comm\u0000ent'],
      [
        'POST',
        '/api/quickFilter',
        { name: 'q', filteredEntityType: 'FILE', criteria: { type: 'FILE', tags: ['x', 'y\u0000'] } },
        'criteria.tags.1',
      ],
      ['POST', '/api/v2/file/upload/init', { name: 'a\u0000.mp4', size: 10, totalChunks: 1 }, 'name'],
      ['POST', '/public-api/user/passwordSetup', { token: 't\u0000', password: 'long-enough-password' }, 'token'],
    ];
    for (const [method, path, json, where] of cases) {
      const res = await send(method, path, { headers, body: JSON.stringify(json) });
      expect(res.status, `${path} ${where}`).toBe(400);
      expect(res.body).toMatchObject({ key: 'request.error.nulCharacter', details: { target: 'json', path: where } });
    }
  });

  it('in form bodies; /oauth/token answers it as RFC 6749 invalid_request', async () => {
    const res = await send('POST', '/oauth/token', { headers: tokenHeaders, body: 'grant_type=password&username=a%00b&password=x' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'invalid_request', error_description: expect.stringContaining('NUL') });
    const slash = await send('POST', '/oauth/revoke/', { headers: tokenHeaders, body: 'token=a%00b' });
    expect(slash.body).toEqual({ error: 'invalid_request', error_description: expect.stringContaining('NUL') });
    const multipart = new FormData();
    multipart.append('fi\u0000le', 'x');
    const picture = await t.app.request('/api/v2/user/profilePicture', {
      method: 'POST',
      headers: { authorization: `Bearer ${owner}` },
      body: multipart,
    });
    expect(picture.status).toBe(400);
    expect(await picture.json()).toMatchObject({ key: 'request.error.nulCharacter', details: { target: 'form' } });
  });
});

describe('deeply nested JSON bodies are a 400', () => {
  it('refuses 100 000 levels of arrays and of objects with request.error.tooDeep', async () => {
    const headers = { authorization: `Bearer ${owner}`, 'content-type': 'application/json' };
    const arrays = '['.repeat(100_000) + ']'.repeat(100_000);
    const objects = '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000);
    for (const body of [arrays, objects]) {
      for (const path of ['/api/team', '/public-api/user/passwordSetup']) {
        const res = await send('POST', path, { headers, body });
        expect(res.status, path).toBe(400);
        expect(res.body).toMatchObject({ key: 'request.error.tooDeep', details: { target: 'json', maxDepth: MAX_JSON_DEPTH } });
      }
    }
  });

  it(`lets ${MAX_JSON_DEPTH} levels through to validation`, async () => {
    const body = '{"name":"deep","comment":' + '['.repeat(MAX_JSON_DEPTH - 1) + ']'.repeat(MAX_JSON_DEPTH - 1) + '}';
    const res = await send('POST', '/api/team', {
      headers: { authorization: `Bearer ${owner}`, 'content-type': 'application/json' },
      body,
    });
    expect(res.status).toBe(400);
    expect(res.body.key).toBe('request.error.invalid');
  });
});

describe('a required body that is not there', () => {
  it('is a 400 on every route whose body is required, though each attribute of it is optional; an empty object is a body', async () => {
    const folder = await t.request('POST', '/api/quickFilter', {
      token: owner,
      json: { name: 'Lobby', filteredEntityType: 'DEVICE', criteria: { type: 'DEVICE', tags: ['lobby'] } },
    });
    expect(folder.status).toBe(201);
    const path = `/api/quickFilter?quickFilterId=${folder.body.id}`;
    const missing = await send('PUT', path, { headers: { authorization: `Bearer ${owner}` } });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ key: 'request.error.invalid', message: 'This operation needs a request body' });
    // Over the listener too, where the client sends Content-Length: 0 (an empty body: undici sets the header itself and
    // refuses one set by hand when it is the global dispatcher, as in a worker another test installed it in).
    const raw = await fetch(`${base}${path}`, { method: 'PUT', headers: { authorization: `Bearer ${owner}` }, body: new Uint8Array(0) });
    expect(raw.status).toBe(400);
    expect(
      (await send('PUT', path, { headers: { authorization: `Bearer ${owner}`, 'content-type': 'application/json' }, body: '{}' })).status,
    ).toBe(200);
  });
});
