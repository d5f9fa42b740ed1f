import { randomInt } from 'node:crypto';
import { v4 as uuidv4 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '@/server/context/roles';
import { modules } from '@/server/composition';
import type { SweepFactory } from '@/server/modules/module';
import { newDevice } from '@/server/modules/display/display.test-kit';
import { formOf, png } from '@/server/modules/uploads/uploads.test-kit';
import { createTestContext, type TestContext } from '@/server/test/harness';
// The harness imports createApp, which imports every *.routes.ts: the table is complete from here on.
import { isDeviceAccess, isUserAccess, routeTable, type ResourceIds, type RouteTableEntry } from './route';
import type { JsonSchema } from '@/server/test/contract/json-schema';

/**
 * "Another tenant's resource id → 404" over the whole route table (GUIDE "Cross-cutting rules"). Each
 * route declares where it takes resource ids (`resourceIds`: path, query or body) and of which kind;
 * each module's manifest gives a factory per kind. For every declared id, one request names another
 * tenant's resource there and the caller's own resources everywhere else, and must get 404.
 * An id-like parameter (`id`, `…Id`, `…Ids`) that is not declared fails the coverage check until it is
 * declared, or declared with its reason as not one (the route's `notResourceIds`). A declared id refused with the
 * answer a nonexistent id gets (the route's `answersLikeMissing`) must get exactly that answer. Player-API routes are called by an assigned device of the
 * caller's tenant, with its device token.
 */

type OpenApiParameter = { name: string; in: string; required?: boolean; schema?: JsonSchema };
type OpenApiOperation = { parameters?: OpenApiParameter[]; requestBody?: { content?: Record<string, { schema?: JsonSchema }> } };
type OpenApiDocument = { paths: Record<string, Record<string, OpenApiOperation>>; components?: { schemas?: Record<string, JsonSchema> } };

/** Path values a route needs besides its ids (a resource type, a part number). */
const fixedPathValues: Record<string, Record<string, string>> = {
  listResourceTeams: { resourceType: 'user' },
  listTeamAssignments: { segment: 'userAssignments' },
  updateTeamResources: { segment: 'updateUserAssignments' },
  uploadPart: { partNumber: '1' },
  lockContent: { locked: 'true' },
  lockSimpleLoop: { locked: 'true' },
};

/** Body values a route needs besides its ids, where the smallest valid sample is not enough. */
const bodyValues: Record<string, Record<string, unknown>> = {
  initUpload: { name: 'sweep.png', size: 10, totalChunks: 1 },
  // A campaign type whose own required fields are all quick filters (the declared ids fill them).
  createCampaign: {
    name: 'sweep',
    level: 'WIDGET',
    type: 'CONTENT_QUICK_FILTER',
    version: '2.0',
    deviceSelectionMode: 'QUICK_FILTER',
    orderingMode: 'DEFAULT',
    contentShuffleMode: 'BALANCED',
  },
  // A slide has at least one page, keyed by its name (an object of no required keys samples empty).
  createContent: { data: { Default: { pageData: { screenSize: { width: 1920, height: 1080 } } } } },
};

/** Multipart bodies (streamed by their handlers, so no schema to sample). */
const multipartBodies: Record<string, () => FormData> = {
  uploadFiles: () => formOf([{ field: 'files', name: 'sweep.png', data: png(1, 1) }]),
};

let t: TestContext;
let doc: OpenApiDocument;
const factories: Record<string, SweepFactory> = Object.assign({}, ...modules.map((m) => m.sweep ?? {}));
const callers = new Map<Role, { token: string; customerId: number }>();

beforeAll(async () => {
  t = await createTestContext();
  doc = (await t.request('GET', '/api/openapi.json')).body as OpenApiDocument;
});
afterAll(() => t.close());

/** One caller per role, each in its own tenant. */
async function callerFor(role: Role) {
  let caller = callers.get(role);
  if (!caller) {
    const { user, token } = await t.actor(role);
    caller = { token, customerId: user.customerId };
    callers.set(role, caller);
  }

  return caller;
}

let deviceCaller: { token: string; customerId: number } | undefined;

/** The caller of a route: a user of its minimum role, or on the player API an assigned device of its own tenant. */
async function callerOf(route: RouteTableEntry) {
  if (isUserAccess(route.access)) return callerFor(route.access.minRole);
  if (!deviceCaller) {
    const customer = await t.factories.customer();
    deviceCaller = { token: (await newDevice(t, { customerId: customer.id })).token, customerId: customer.id };
  }

  return deviceCaller;
}

const operationOf = (route: RouteTableEntry) => doc.paths[route.path]?.[route.method.toLowerCase()];
/** The schema behind a `$ref`, and behind `anyOf: [T, {type: null}]` (an attribute whose null is declared, update-body.ts). */
const resolve = (schema: JsonSchema | undefined): JsonSchema | undefined => {
  if (schema?.$ref) return resolve(doc.components?.schemas?.[schema.$ref.split('/').pop()!]);
  const nonNull = schema?.anyOf?.filter((variant) => variant.type !== 'null');
  if (nonNull?.length === 1 && schema!.anyOf!.length === 2) return resolve(nonNull[0]);

  return schema;
};
const isIdLike = (name: string) => name !== 'customerId' && (name === 'id' || /Ids?$/.test(name));
const label = (route: RouteTableEntry) => `${route.method} ${route.path} (${route.operationId})`;

/** The id-like parameters a route's OpenAPI operation takes, as `in.name` (body: top-level properties). */
function idLikeParameters(route: RouteTableEntry): string[] {
  const op = operationOf(route);
  const params = (op?.parameters ?? [])
    .filter((p) => (p.in === 'path' || p.in === 'query') && isIdLike(p.name))
    .map((p) => `${p.in}.${p.name}`);
  const body = resolve(op?.requestBody?.content?.['application/json']?.schema);
  const bodyProps = Object.entries(body?.properties ?? {})
    .filter(([name]) => isIdLike(name))
    .map(([name, schema]) => (resolve(schema)?.type === 'array' ? `body.${name}[]` : `body.${name}`));

  return [...params, ...bodyProps];
}

/** A valid value for a schema: the smallest thing its validator accepts. */
function sample(schema: JsonSchema | undefined, depth = 0): unknown {
  const s = resolve(schema);
  if (!s || depth > 8) return undefined;
  if (s.const !== undefined) return s.const;
  if (s.enum?.length) return s.enum[0];
  const variant = s.oneOf?.[0] ?? s.anyOf?.find((v) => resolve(v)?.type !== 'null') ?? s.allOf?.[0];
  if (variant) return sample(variant, depth + 1);
  const type = Array.isArray(s.type) ? s.type.find((x) => x !== 'null') : s.type;
  switch (type) {
    case 'object':
      return Object.fromEntries((s.required ?? []).map((name) => [name, sample(s.properties?.[name], depth + 1)]));
    case 'array':
      return Array.from({ length: s.minItems ?? 0 }, () => sample(s.items, depth + 1));
    case 'integer':
    case 'number':
      return Math.max(s.minimum ?? 1, 1);
    case 'boolean':
      return false;
    default:
      if (s.format === 'uuid') return uuidv4();
      if (s.format === 'email') return 'sweep@example.com';

      return 'x'.repeat(Math.max(s.minLength ?? 1, 1));
  }
}

/**
 * A declared id inside the body (`body.contentAssignment.assignments[].contentId`: `[]` after a segment is
 * an array of one object, or of the id itself when last) resolves through the route's body schema.
 */
function nestedBodyPathExists(route: RouteTableEntry, where: string): boolean {
  const segments = where.split('.');
  if (segments[0] !== 'body' || segments.length < 3) return false;

  return hasPath(operationOf(route)?.requestBody?.content?.['application/json']?.schema, segments.slice(1));
}

/** Whether `segments` lead somewhere in `schema`, through any alternative of a union (a body per `@type`). */
function hasPath(schema: JsonSchema | undefined, segments: string[]): boolean {
  const node = resolve(schema);
  if (!node) return false;
  const alternatives = node.oneOf ?? node.anyOf;
  if (alternatives) return alternatives.some((alternative) => hasPath(alternative, segments));
  if (segments.length === 0) return true;
  const [segment, ...rest] = segments as [string, ...string[]];
  let next = resolve(node.properties?.[segment.replace(/\[\]$/, '')]);
  if (segment.endsWith('[]')) next = resolve(next?.items);

  return next !== undefined && hasPath(next, rest);
}

/** Puts `id` at a nested body path (see nestedBodyPathExists), keeping what is there. */
function setNested(body: Record<string, unknown>, segments: string[], id: string | number): void {
  let node = body;
  segments.forEach((segment, i) => {
    const name = segment.replace(/\[\]$/, '');
    const isArray = segment.endsWith('[]');
    if (i === segments.length - 1) {
      node[name] = isArray ? [id] : id;

      return;
    }
    if (isArray) {
      const list = (Array.isArray(node[name]) && (node[name] as unknown[]).length > 0 ? node[name] : [{}]) as Record<string, unknown>[];
      node[name] = list;
      node = list[0]!;
    } else {
      node[name] = typeof node[name] === 'object' && node[name] !== null ? node[name] : {};
      node = node[name] as Record<string, unknown>;
    }
  });
}

type SweepRequest = { method: string; path: string; json?: unknown; form?: () => FormData };

/**
 * The request naming another tenant's resource (`foreign`, or a random id when `foreign` is null) at
 * `target`, and the caller's own resources at every other declared id.
 */
async function sweepRequest(
  route: RouteTableEntry,
  ids: ResourceIds,
  target: string,
  foreign: number | null,
  ownCustomerId: number,
): Promise<SweepRequest> {
  const values = new Map<string, string>();
  for (const [where, kind] of Object.entries(ids)) {
    if (where === target && foreign === null)
      values.set(where, /^\d+$/.test(await factories[kind]!(t.db, ownCustomerId)) ? String(randomInt(1_000_000, 2_000_000_000)) : uuidv4());
    else values.set(where, await factories[kind]!(t.db, where === target ? foreign! : ownCustomerId));
  }
  const op = operationOf(route);
  const pathValue = (name: string) => {
    const declared = values.get(`path.${name}`);
    if (declared !== undefined) return declared;
    const fixed = fixedPathValues[route.operationId]?.[name];
    if (fixed !== undefined) return fixed;
    const type = resolve(op?.parameters?.find((p) => p.in === 'path' && p.name === name)?.schema)?.type;

    return type === 'integer' || type === 'number' ? String(randomInt(1_000_000, 2_000_000_000)) : uuidv4();
  };
  const path = route.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(pathValue(name)));
  const query = new URLSearchParams();
  for (const param of op?.parameters ?? []) {
    if (param.in !== 'query') continue;
    const declared = values.get(`query.${param.name}`);
    if (declared !== undefined) query.set(param.name, declared);
    // A required tenant selector (batches over devices) names the caller's own tenant.
    else if (param.required) query.set(param.name, param.name === 'customerId' ? String(ownCustomerId) : String(sample(param.schema)));
  }
  const bodySchema = op?.requestBody?.content?.['application/json']?.schema;
  let json: unknown;
  const sampled = bodySchema ? sample(bodySchema) : undefined;
  if (Array.isArray(sampled)) {
    // A list body (tags): no ids inside it.
    json = sampled;
  } else if (bodySchema) {
    const body = { ...(sampled as Record<string, unknown> | undefined), ...bodyValues[route.operationId] };
    for (const [where, raw] of values) {
      // Integer ids travel as JSON numbers in bodies (DECISIONS §2).
      const id = /^\d+$/.test(raw) ? Number(raw) : raw;
      const match = /^body\.(\w+)(\[\])?$/.exec(where);
      if (match) body[match[1]!] = match[2] ? [id] : id;
      else if (where.startsWith('body.')) setNested(body, where.split('.').slice(1), id);
    }
    json = body;
  }
  const search = query.toString();

  return { method: route.method, path: search ? `${path}?${search}` : path, json, form: multipartBodies[route.operationId] };
}

async function send(request: SweepRequest, token: string) {
  if (!request.form) return t.request(request.method, request.path, { token, json: request.json });
  const res = await t.app.request(request.path, {
    method: request.method,
    headers: { authorization: `Bearer ${token}` },
    body: request.form(),
  });

  return { status: res.status, body: (await res.json()) as { key?: string } };
}

/** Routes a caller of one tenant can reach with another tenant's ids (ADMIN sees every tenant). */
const sweptRoutes = routeTable.filter((r) => isDeviceAccess(r.access) || (isUserAccess(r.access) && r.access.minRole !== 'ADMIN'));

describe('declared resource ids', () => {
  it('every id-like parameter is declared as a resource id or listed with its reason', () => {
    const undeclared = sweptRoutes.flatMap((route) =>
      idLikeParameters(route)
        .filter((where) => !(where in route.resourceIds) && !(where.replace(/\[\]$/, '') in route.notResourceIds))
        .map((where) => `${route.operationId}:${where}`),
    );
    expect(undeclared).toEqual([]);
  });

  it('names only parameters the route takes, of kinds some module can create', () => {
    for (const route of routeTable) {
      const taken = new Set(idLikeParameters(route));
      const op = operationOf(route);
      for (const [where, kind] of Object.entries(route.resourceIds)) {
        const [place, name] = where.replace(/\[\]$/, '').split('.') as [string, string];
        const exists =
          taken.has(where) || (op?.parameters ?? []).some((p) => p.in === place && p.name === name) || nestedBodyPathExists(route, where);
        expect(exists, `${label(route)} declares ${where}, which it does not take`).toBe(true);
        expect(factories[kind], `${label(route)}: no module has a sweep factory for '${kind}'`).toBeTypeOf('function');
      }
    }
  });

  it('answers like a missing id only where declared, for declared ids', () => {
    for (const route of routeTable) {
      for (const where of Object.keys(route.answersLikeMissing))
        expect(route.resourceIds, `${route.operationId}:${where}`).toHaveProperty([where]);
    }
  });

  it('declares no exception that no longer exists', () => {
    const current = new Set(
      sweptRoutes.flatMap((route) => idLikeParameters(route).map((where) => `${route.operationId}:${where.replace(/\[\]$/, '')}`)),
    );
    const declared = routeTable.flatMap((route) => Object.keys(route.notResourceIds).map((where) => `${route.operationId}:${where}`));
    expect(declared.filter((key) => !current.has(key))).toEqual([]);
  });
});

const cases = sweptRoutes.flatMap((route) =>
  Object.keys(route.resourceIds).map((target) => ({ route, target, name: `${label(route)} ${target}` })),
);

describe("another tenant's resource id answers 404", () => {
  it.each(cases)('$name', async ({ route, target }) => {
    const caller = await callerOf(route);
    const other = await t.factories.customer();
    const request = await sweepRequest(route, route.resourceIds, target, other.id, caller.customerId);
    const res = await send(request, caller.token);
    const shown = `${request.method} ${request.path} ${JSON.stringify(request.json)} → ${JSON.stringify(res.body)}`;
    if (target in route.answersLikeMissing) {
      const missing = await send(await sweepRequest(route, route.resourceIds, target, null, caller.customerId), caller.token);
      expect(res.status, shown).toBeGreaterThanOrEqual(400);
      expect([res.status, res.body?.key], shown).toEqual([missing.status, missing.body?.key]);

      return;
    }
    expect(res.status, shown).toBe(404);
    expect(res.body).toMatchObject({
      status: 404,
      key: expect.stringMatching(/^[\w]+(\.[\w]+)*\.error\.\w+$/),
      message: expect.any(String),
    });
  });
});
