import http from 'node:http';
import { randomInt } from 'node:crypto';
import { v4 as uuidv4 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newDevice } from '@/server/modules/display/display.test-kit';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { DEFAULT_BODY_LIMIT } from './request-input';
// The harness imports createApp, which imports every *.routes.ts: the table is complete from here on.
import { isDeviceAccess, routeTable, type RouteTableEntry } from './route';

/**
 * Hostile input over the whole route table (issue 10: "4xx everywhere, never 500"), as an authorised
 * ADMIN (on the player API: an assigned device): a NUL in a query value and in a path parameter, a NUL in the body, a body over the route's
 * limit, a 100 000-level JSON body. No answer may be a 5xx; where the route takes that input, the
 * answer is the specific 400 or 413 of the shared request layer.
 */

type OpenApiParameter = { name: string; in: string; schema?: { type?: string; example?: unknown }; example?: unknown };
type OpenApiDocument = { paths: Record<string, Record<string, { parameters?: OpenApiParameter[] }>> };

let t: TestContext;
let base: string;
let admin: string;
let device: string;
let doc: OpenApiDocument;

beforeAll(async () => {
  t = await createTestContext();
  base = await t.listen();
  admin = (await t.actor('ADMIN')).token;
  device = (await newDevice(t, { customerId: (await t.factories.customer()).id })).token;
  doc = (await t.request('GET', '/api/openapi.json')).body as OpenApiDocument;
});
afterAll(() => t.close());

/** The RFC 6749 endpoints answer in its shape (`invalid_request`). */
const isOAuth = (route: RouteTableEntry) => route.path === '/oauth/token' || route.path === '/oauth/revoke';
const label = (route: RouteTableEntry) => `${route.method} ${route.path} (${route.operationId})`;
const tokenFor = (route: RouteTableEntry) => (isDeviceAccess(route.access) ? device : admin);

function parametersOf(route: RouteTableEntry, where: 'query' | 'path'): OpenApiParameter[] {
  return (doc.paths[route.path]?.[route.method.toLowerCase()]?.parameters ?? []).filter((p) => p.in === where);
}

/** A well-formed value for a path parameter: its example when it has one, else a random id of its type. */
function pathValue(param: OpenApiParameter | undefined): string {
  const example = param?.example ?? param?.schema?.example;
  if (typeof example === 'string' || typeof example === 'number') return String(example);
  if (param?.schema?.type === 'integer' || param?.schema?.type === 'number') return String(randomInt(1_000_000, 2_000_000_000));

  return uuidv4();
}

/** The route's path with its parameters filled; `nulIn` names a parameter that gets a NUL instead. */
function pathOf(route: RouteTableEntry, nulIn?: string): string {
  const params = parametersOf(route, 'path');

  return route.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    name === nulIn ? 'a%00b' : encodeURIComponent(pathValue(params.find((p) => p.name === name))),
  );
}

async function call(route: RouteTableEntry, path: string, init: { headers?: Record<string, string>; body?: BodyInit } = {}) {
  const res = await t.app.request(path, {
    method: route.method,
    headers: { authorization: `Bearer ${tokenFor(route)}`, ...init.headers },
    body: init.body,
    duplex: 'half',
  } as RequestInit);
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // not JSON (CSV, HTML)
  }

  return { status: res.status, body };
}

/** Over a real socket, with a real body of `size` bytes and its Content-Length (GET included). */
function overListener(route: RouteTableEntry, path: string, size: number): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${path}`, {
      method: route.method,
      headers: { authorization: `Bearer ${tokenFor(route)}`, 'content-type': 'application/json', 'content-length': String(size) },
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        let body: Record<string, unknown> = {};
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
        } catch {
          // not JSON
        }
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    req.on('error', reject);
    req.end(Buffer.alloc(size, 0x20));
  });
}

function expectNulRefused(route: RouteTableEntry, res: { status: number; body: Record<string, unknown> }, target: string) {
  expect(res.status, label(route)).toBe(400);
  if (isOAuth(route)) expect(res.body).toMatchObject({ error: 'invalid_request' });
  else expect(res.body).toMatchObject({ status: 400, key: 'request.error.nulCharacter', details: { target } });
}

const withBody = (route: RouteTableEntry) => route.method !== 'GET' && route.method !== 'HEAD';
/** 100 000 levels, or as many as the route's body limit holds (the player's heartbeat takes 64 KiB). */
const deepJson = (route: RouteTableEntry) => {
  const levels = Math.min(100_000, typeof route.bodyLimit === 'number' ? Math.floor(route.bodyLimit / 2) : 100_000);

  return '['.repeat(levels) + ']'.repeat(levels);
};

describe.each(routeTable.map((route) => ({ route, name: label(route) })))('$name', ({ route }) => {
  it('refuses a NUL in a query value with 400', async () => {
    const name = parametersOf(route, 'query').find((p) => p.name !== 'customerId' && p.name !== 'token')?.name ?? 'probe';
    expectNulRefused(route, await call(route, `${pathOf(route)}?${name}=a%00b`), 'query');
  });

  const pathParams = [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  if (pathParams.length > 0) {
    it('refuses a NUL in a path parameter with 400', async () => {
      expectNulRefused(route, await call(route, pathOf(route, pathParams[0])), 'param');
    });
  }

  if (withBody(route)) {
    it('refuses a NUL in the body it parses with 400 (and never answers a NUL body with a 5xx)', async () => {
      const path = pathOf(route);
      if (route.parsedBody.json) {
        expectNulRefused(
          route,
          await call(route, path, { headers: { 'content-type': 'application/json' }, body: '{"name":"a\\u0000b","nul\\u0000key":1}' }),
          'json',
        );
      } else if (route.parsedBody.form.includes('application/x-www-form-urlencoded')) {
        expectNulRefused(
          route,
          await call(route, path, {
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: 'grant_type=password&username=a%00b&token=a%00b',
          }),
          'form',
        );
      } else if (route.parsedBody.form.includes('multipart/form-data')) {
        const form = new FormData();
        form.append('name', 'a\u0000b');
        expectNulRefused(route, await call(route, path, { body: form }), 'form');
      } else {
        const res = await call(route, path, { headers: { 'content-type': 'application/json' }, body: '{"name":"a\\u0000b"}' });
        expect(res.status, label(route)).toBeLessThan(500);
      }
    });

    it('refuses a 100 000-level JSON body (or as deep as its limit holds) it parses with 400 request.error.tooDeep (never a 5xx)', async () => {
      const res = await call(route, pathOf(route), { headers: { 'content-type': 'application/json' }, body: deepJson(route) });
      if (route.parsedBody.json) {
        expect(res.status, label(route)).toBe(400);
        expect(res.body).toMatchObject({ key: 'request.error.tooDeep' });
      } else {
        expect(res.status, label(route)).toBeLessThan(500);
      }
    });
  }

  it('answers a body over its limit with 413 (never a 5xx)', async () => {
    const limit = route.bodyLimit === 'stream' ? DEFAULT_BODY_LIMIT : route.bodyLimit;
    const res = await overListener(route, pathOf(route), limit + 1);
    if (route.bodyLimit === 'stream') {
      // Streaming routes enforce their own limits (uploads): whatever they answer, it is no 5xx.
      expect(res.status, label(route)).toBeLessThan(500);
    } else {
      expect(res.status, label(route)).toBe(413);
      expect(res.body).toMatchObject({ status: 413, key: 'request.error.payloadTooLarge', details: { maxBytes: limit } });
    }
  });

  if (withBody(route) && route.parsedBody.json) {
    it('answers a body without length that passes its limit with 413 while reading', async () => {
      const limit = route.bodyLimit as number;
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent > limit) return controller.close();
          sent += 64 * 1024;
          controller.enqueue(new Uint8Array(64 * 1024).fill(0x20));
        },
      });
      const res = await call(route, pathOf(route), { headers: { 'content-type': 'application/json' }, body });
      expect(res.status, label(route)).toBe(413);
    });
  }
});

describe('the route table declares body limits', () => {
  it('gives every route a limit: the default unless it says otherwise; only routes that stream the body say stream', () => {
    for (const route of routeTable) {
      expect(route.bodyLimit === 'stream' || (Number.isInteger(route.bodyLimit) && route.bodyLimit > 0), label(route)).toBe(true);
      if (route.bodyLimit === 'stream') expect(route.parsedBody.json || route.parsedBody.form.length > 0, label(route)).toBe(false);
    }
    expect(
      routeTable
        .filter((r) => r.bodyLimit === 'stream')
        .map((r) => r.operationId)
        .sort(),
    ).toEqual(['uploadFileThumbnail', 'uploadFiles', 'uploadPart']);
  });

  it('shows the limit in the OpenAPI document as x-body-limit', async () => {
    const full = (await t.request('GET', '/api/openapi.json')).body as {
      paths: Record<string, Record<string, { 'x-body-limit'?: unknown }>>;
    };
    for (const route of routeTable)
      expect(full.paths[route.path]?.[route.method.toLowerCase()]?.['x-body-limit'], label(route)).toBe(route.bodyLimit);
  });
});
