import { randomInt } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { v4 as uuidv4 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roleBelow, roles, type Role } from '@/server/context/roles';
import { customers } from '@/server/tenant/customers.table';
import { devices } from '@/server/modules/devices/devices.table';
import { newDevice } from '@/server/modules/display/display.test-kit';
import { createTestContext, testEnv, type TestContext } from '@/server/test/harness';
// The harness imports createApp, which imports every *.routes.ts: the table is complete from here on.
import { isDeviceAccess, routeTable, type DeviceAccess, type RouteTableEntry } from './route';

/**
 * The shared security checks of the route table (GUIDE "Cross-cutting rules"), run over every
 * declared route so that later endpoints are covered without touching this file.
 */

type OpenApiParameter = { name: string; in: string; schema?: { type?: string; format?: string } };
type OpenApiOperation = { operationId?: string; parameters?: OpenApiParameter[]; security?: unknown[]; 'x-minimum-role'?: string };
type OpenApiDocument = { openapi: string; paths: Record<string, Record<string, OpenApiOperation>> };

let t: TestContext;
let doc: OpenApiDocument;
const actors = new Map<string, { token: string; customerId: number }>();

beforeAll(async () => {
  t = await createTestContext();
  const res = await t.request('GET', '/api/openapi.json');
  expect(res.status).toBe(200);
  doc = res.body as OpenApiDocument;
});
afterAll(() => t.close());

/** One signed-in user per (role, variant); a restricted variant lives in its own customer. */
async function actorFor(role: Role, variant: 'plain' | 'restricted' = 'plain') {
  const key = `${role}:${variant}`;
  let cached = actors.get(key);
  if (!cached) {
    const { user, token } = await t.actor(role);
    if (variant === 'restricted') await t.db.update(customers).set({ restricted: true }).where(eq(customers.id, user.customerId));
    cached = { token, customerId: user.customerId };
    actors.set(key, cached);
  }

  return cached;
}

type DeviceVariant = 'assigned' | 'unassigned' | 'restricted' | 'deleted';
const deviceTokens = new Map<DeviceVariant, string>();

/**
 * One device token per variant: assigned to a customer, unassigned (registered, not claimed), of a
 * restricted customer, and of a deleted device (its tokens went with it).
 */
async function deviceTokenFor(variant: DeviceVariant): Promise<string> {
  let token = deviceTokens.get(variant);
  if (!token) {
    const customer = variant === 'unassigned' ? undefined : await t.factories.customer();
    const device = await newDevice(t, { customerId: customer?.id });
    if (variant === 'restricted') await t.db.update(customers).set({ restricted: true }).where(eq(customers.id, customer!.id));
    if (variant === 'deleted') await t.db.delete(devices).where(eq(devices.id, device.deviceId));
    token = device.token;
    deviceTokens.set(variant, token);
  }

  return token;
}

let networkOwnerActor: { token: string; memberId: number } | undefined;

/** The OWNER of a network-owner customer with one member. */
async function networkOwner() {
  if (!networkOwnerActor) {
    const ownerCustomer = await t.factories.customer({ isSubreseller: true, subresellerSince: new Date() });
    const member = await t.factories.customer({ ownerSubresellerId: ownerCustomer.id });
    const { token } = await t.actor('OWNER', { customerId: ownerCustomer.id });
    networkOwnerActor = { token, memberId: member.id };
  }

  return networkOwnerActor;
}

function operationOf(route: RouteTableEntry): OpenApiOperation | undefined {
  return doc.paths[route.path]?.[route.method.toLowerCase()];
}

/** A well-formed random value for a path parameter, typed by the OpenAPI document (uuid unless it says integer). */
function pathValue(param: OpenApiParameter | undefined): string {
  const type = param?.schema?.type;
  if (type === 'integer' || type === 'number') return String(randomInt(1_000_000, 2_000_000_000));

  return uuidv4();
}

/**
 * The request for a route: `{name}` path parameters filled, an optional `customerId` selector.
 * No body is sent: authentication, role and tenant checks must answer before body validation.
 */
function buildRequest(route: RouteTableEntry, options: { customerId?: number } = {}): { method: string; path: string } {
  const params = operationOf(route)?.parameters ?? [];
  let path = route.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(pathValue(params.find((p) => p.in === 'path' && p.name === name))),
  );
  if (options.customerId !== undefined) path += `${path.includes('?') ? '&' : '?'}customerId=${options.customerId}`;

  return { method: route.method, path };
}

function label(route: RouteTableEntry): string {
  return `${route.method} ${route.path} (${route.operationId})`;
}

function expectErrorBody(body: unknown, status: number, key?: string) {
  expect(body).toMatchObject({ status, key: expect.stringMatching(/^[\w]+(\.[\w]+)*\.error\.\w+$/), message: expect.any(String) });
  if (key) expect((body as { key: string }).key).toBe(key);
}

it('has routes, each declared once with a unique operationId', () => {
  expect(routeTable.length).toBeGreaterThanOrEqual(7);
  const keys = routeTable.map((r) => `${r.method} ${r.path}`);
  expect(new Set(keys).size).toBe(keys.length);
  const ids = routeTable.map((r) => r.operationId);
  expect(new Set(ids).size).toBe(ids.length);
});

describe.each(routeTable.map((route) => ({ route, name: label(route) })))('$name', ({ route }) => {
  if (route.access.public) {
    it('is public: no x-minimum-role and no bearer security in the OpenAPI document', () => {
      const op = operationOf(route);
      expect(op).toBeDefined();
      expect(op!['x-minimum-role']).toBeUndefined();
      expect(JSON.stringify(op!.security ?? [])).not.toContain('bearerAuth');
    });

    it('does not ask an anonymous caller for a bearer token', async () => {
      const { method, path } = buildRequest(route);
      const res = await t.request(method, path);
      expect(res.headers.get('www-authenticate') ?? '').not.toMatch(/^Bearer/i);
    });

    return;
  }
  if (isDeviceAccess(route.access)) {
    deviceRouteChecks(route, route.access);

    return;
  }
  const access = route.access;

  it('declares a known minimum role, published as x-minimum-role', () => {
    expect(roles).toContain(access.minRole);
    expect(['scoped', 'none']).toContain(access.tenant);
    const op = operationOf(route);
    expect(op, `operation ${label(route)} missing from /api/openapi.json`).toBeDefined();
    expect(op!['x-minimum-role']).toBe(access.minRole);
    expect(JSON.stringify(op!.security)).toContain('bearerAuth');
  });

  it('answers 401 with WWW-Authenticate: Bearer to an anonymous caller', async () => {
    const { method, path } = buildRequest(route);
    const res = await t.request(method, path);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expectErrorBody(res.body, 401);
  });

  it('answers 401 to an unknown bearer token', async () => {
    const { method, path } = buildRequest(route);
    const res = await t.request(method, path, { token: 'A'.repeat(43) });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expectErrorBody(res.body, 401, 'auth.error.invalidToken');
  });

  // The console's session cookie is a credential of every user route: one that is not even valid percent-encoding is a bad credential.
  it.each([
    'next-auth.session-token=%',
    '__Secure-next-auth.session-token=%E0%A4%A',
    'next-auth.session-token.0=abc; next-auth.session-token.1=%zz',
  ])('answers 401 to a malformed session cookie (%s)', async (cookie) => {
    const { method, path } = buildRequest(route);
    const res = await t.request(method, path, { headers: { cookie, origin: testEnv.PUBLIC_URL } });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expectErrorBody(res.body, 401, 'auth.error.unauthorized');
  });

  const below = roleBelow(access.minRole);
  // The lowest role has no role below it: that check exists only where it can fail.
  if (below !== undefined)
    it(`answers 403 to a caller one role below (${below})`, async () => {
      const caller = await actorFor(below);
      const { method, path } = buildRequest(route);
      const res = await t.request(method, path, { token: caller.token });
      expect(res.status).toBe(403);
      expectErrorBody(res.body, 403, 'auth.error.roleRequired');
      expect(res.body.details).toMatchObject({ minimumRole: access.minRole });
    });

  // Only tenant-scoped routes take customerId; ADMIN may select any tenant.
  if (access.tenant === 'scoped' && access.minRole !== 'ADMIN')
    it("answers 403 for another tenant's customerId", async () => {
      const caller = await actorFor(access.minRole);
      const other = await t.factories.customer();
      const { method, path } = buildRequest(route, { customerId: other.id });
      const res = await t.request(method, path, { token: caller.token });
      expect(res.status).toBe(403);
      expectErrorBody(res.body, 403, 'auth.error.tenantForbidden');
    });

  // A network owner's OWNER reaches its members through customerId, never a non-member.
  if (access.tenant === 'scoped' && roles.indexOf(access.minRole) <= roles.indexOf('OWNER')) {
    it('lets a network owner select a member tenant and refuses a non-member', async () => {
      const owner = await networkOwner();
      const member = buildRequest(route, { customerId: owner.memberId });
      const memberRes = await t.request(member.method, member.path, { token: owner.token });
      expect(memberRes.status === 403 && memberRes.body?.key === 'auth.error.tenantForbidden').toBe(false);
      expect(memberRes.status === 401).toBe(false);
      const outsider = await t.factories.customer();
      const other = buildRequest(route, { customerId: outsider.id });
      const otherRes = await t.request(other.method, other.path, { token: owner.token });
      expect(otherRes.status).toBe(403);
      expectErrorBody(otherRes.body, 403, 'auth.error.tenantForbidden');
    });
  }

  it('answers 403 auth.error.customerRestricted to a user of a restricted customer', async () => {
    const caller = await actorFor(access.minRole, 'restricted');
    const { method, path } = buildRequest(route);
    const res = await t.request(method, path, { token: caller.token });
    expect(res.status).toBe(403);
    expectErrorBody(res.body, 403, 'auth.error.customerRestricted');
  });

  it('answers 401 to a device token (device tokens serve only the player API)', async () => {
    const { method, path } = buildRequest(route);
    const res = await t.request(method, path, { token: await deviceTokenFor('assigned') });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expectErrorBody(res.body, 401, 'auth.error.invalidToken');
  });
});

/** The player API (spec 4 §2): device tokens only, in both directions. */
function deviceRouteChecks(route: RouteTableEntry, access: DeviceAccess) {
  it('is a player-API route: device token security and x-caller in the OpenAPI document, no role', () => {
    expect(route.path).toMatch(/^\/api\/display\//);
    expect(['any', 'assigned']).toContain(access.device);
    const op = operationOf(route) as OpenApiOperation & { 'x-caller'?: string };
    expect(op, `operation ${label(route)} missing from /api/openapi.json`).toBeDefined();
    expect(op['x-minimum-role']).toBeUndefined();
    expect(op['x-caller']).toBe('device');
    expect(op.security).toEqual([{ deviceToken: [] }]);
  });

  it('answers 401 with WWW-Authenticate: Bearer to an anonymous caller', async () => {
    const { method, path } = buildRequest(route);
    const res = await t.request(method, path);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expectErrorBody(res.body, 401);
  });

  it('answers 401 to an unknown bearer token', async () => {
    const { method, path } = buildRequest(route);
    const res = await t.request(method, path, { token: 'A'.repeat(43) });
    expect(res.status).toBe(401);
    expectErrorBody(res.body, 401, 'auth.error.invalidToken');
  });

  it("answers 401 to a user's token, even an ADMIN's", async () => {
    const { method, path } = buildRequest(route);
    const res = await t.request(method, path, { token: (await actorFor('ADMIN')).token });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expectErrorBody(res.body, 401, 'auth.error.invalidToken');
  });

  it('answers 401 to a device of a restricted customer', async () => {
    const { method, path } = buildRequest(route);
    const res = await t.request(method, path, { token: await deviceTokenFor('restricted') });
    expect(res.status).toBe(401);
    expectErrorBody(res.body, 401, 'auth.error.customerRestricted');
  });

  it('answers 401 to the token of a deleted device', async () => {
    const { method, path } = buildRequest(route);
    const res = await t.request(method, path, { token: await deviceTokenFor('deleted') });
    expect(res.status).toBe(401);
    expectErrorBody(res.body, 401, 'auth.error.invalidToken');
  });

  if (access.device === 'assigned') {
    it('answers 403 display.error.notAssigned to an unassigned device', async () => {
      const { method, path } = buildRequest(route);
      const res = await t.request(method, path, { token: await deviceTokenFor('unassigned') });
      expect(res.status).toBe(403);
      expectErrorBody(res.body, 403, 'display.error.notAssigned');
    });
  } else {
    it('admits an unassigned device', async () => {
      const { method, path } = buildRequest(route);
      const res = await t.request(method, path, { token: await deviceTokenFor('unassigned') });
      expect([401, 403]).not.toContain(res.status);
    });
  }

  it('admits an assigned device', async () => {
    const { method, path } = buildRequest(route);
    const res = await t.request(method, path, { token: await deviceTokenFor('assigned') });
    expect([401, 403]).not.toContain(res.status);
  });
}

describe('/api/openapi.json', () => {
  it('is an OpenAPI 3.1 document', () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
  });

  it('lists every route of the route table with its method and operationId', () => {
    const missing = routeTable.filter((r) => operationOf(r) === undefined).map(label);
    expect(missing).toEqual([]);
    for (const route of routeTable) expect(operationOf(route)!.operationId).toBe(route.operationId);
  });

  it('lists no /api, /public-api or /oauth operation that is missing from the route table', () => {
    const declared = new Set(routeTable.map((r) => `${r.method} ${r.path}`));
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops)
        .filter((m) => ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'].includes(m))
        .map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(documented.filter((op) => !declared.has(op))).toEqual([]);
  });
});

describe('/api/openapi.json: what strict tools need', () => {
  it('has no $ref that does not resolve, anywhere in the document', () => {
    const unresolved: string[] = [];
    const walk = (node: unknown, at: string): void => {
      if (Array.isArray(node)) return node.forEach((item, i) => walk(item, `${at}/${i}`));
      if (typeof node !== 'object' || node === null) return;
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string' && resolvePointer(doc, value) === undefined) unresolved.push(`${at}: ${value}`);
        walk(value, `${at}/${key}`);
      }
    };
    walk(doc, '#');
    expect(unresolved).toEqual([]);
  });

  it('spells each path template one way: no two templates differ only in parameter names', () => {
    const spellings = new Map<string, Set<string>>();
    for (const path of Object.keys(doc.paths)) {
      const shape = path.replace(/\{[^}]+\}/g, '{}');
      spellings.set(shape, (spellings.get(shape) ?? new Set()).add(path));
    }
    expect([...spellings.values()].filter((paths) => paths.size > 1).map((paths) => [...paths])).toEqual([]);
  });

  it('declares security on every operation: `[]` on public ones, or their own credential', () => {
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ name: `${method} ${path}`, op })),
    );
    expect(operations.filter(({ op }) => !Array.isArray(op.security)).map(({ name }) => name)).toEqual([]);
    const publicOps = routeTable.filter((route) => route.access.public).map((route) => operationOf(route)!);
    expect(
      publicOps.filter(
        (op) =>
          op.security!.length > 0 &&
          ![
            JSON.stringify([{ clientBasic: [] }]),
            JSON.stringify([{ webhookApiKey: [] }]),
            JSON.stringify([{ metricsToken: [] }]),
          ].includes(JSON.stringify(op.security)),
      ),
    ).toEqual([]);
  });

  it('names a server and a licence', () => {
    const info = doc as unknown as { servers?: { url: string }[]; info: { license?: { name: string } } };
    expect(info.servers?.length).toBeGreaterThan(0);
    expect(info.info.license?.name).toBeTruthy();
  });
});

/** The value a local JSON pointer (`#/components/schemas/Error`) names in `root`, or undefined. */
function resolvePointer(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof node !== 'object' || node === null || !(key in node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }

  return node;
}

describe('/api/docs', () => {
  it('answers the Swagger UI page, which loads the bundled assets and points at the document', async () => {
    const res = await t.app.request('/api/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    const html = await res.text();
    expect(html).toContain('src="/api/docs/assets/swagger-ui-bundle.js"');
    expect(html).toContain('src="/api/docs/assets/init.js"');
    expect(html).not.toMatch(/https?:\/\/(cdn|unpkg)/);
    const init = await t.app.request('/api/docs/assets/init.js');
    expect(init.headers.get('content-type')).toMatch(/javascript/);
    expect(await init.text()).toContain("url: '/api/openapi.json'");
  });

  it('sends a Content-Security-Policy its page works under: our scripts only, no inline script, no framing', async () => {
    const res = await t.app.request('/api/docs');
    const policy = res.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'none'");
    expect(policy).toMatch(/script-src 'self'(;|$)/);
    expect(policy).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    // Every script of the page is a file the policy admits: none is inline.
    expect((await res.text()).match(/<script(?![^>]*\ssrc=)[^>]*>/g)).toBeNull();
  });

  it('serves swagger-ui-bundle.js and refuses other asset names', async () => {
    const res = await t.app.request('/api/docs/assets/swagger-ui-bundle.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    expect((await res.text()).length).toBeGreaterThan(100_000);
    expect((await t.app.request('/api/docs/assets/package.json')).status).toBe(404);
    expect((await t.app.request('/api/docs/assets/..%2Fpackage.json')).status).toBe(404);
  });
});
