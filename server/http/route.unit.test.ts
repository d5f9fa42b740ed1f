import { z } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import { defineRoute, routeTable, type RouteAccess, type RouteOptions } from './route';

/** The statuses (and their headers) a declaration implies: the OpenAPI document lists them for every operation. */

const ok = { 200: { description: 'ok', content: { 'application/json': { schema: z.object({ id: z.string() }) } } } };
let counter = 0;

function declare(
  access: RouteAccess,
  request: Record<string, unknown> = {},
  options: RouteOptions = {},
  responses: Record<number, object> = ok,
) {
  const operationId = `derived${++counter}`;
  defineRoute(access, { method: 'post', path: `/derived/${counter}`, operationId, request, responses } as never, options);
  const entry = routeTable.find((route) => route.operationId === operationId)!;

  return entry.responses as Record<string, { description: string; headers?: Record<string, unknown>; content?: unknown }>;
}

const statuses = (responses: Record<string, unknown>) => Object.keys(responses).map(Number);
const jsonBody = { body: { required: true, content: { 'application/json': { schema: z.object({ name: z.string() }) } } } };

describe('derived responses', () => {
  it('a public route without a body: 400 (hostile input), 413 (a declared length above the limit) and 503 (starting)', () => {
    expect(statuses(declare({ public: true }))).toEqual([200, 400, 413, 503]);
  });

  it('the health checks answer while the service starts: no 503', () => {
    expect(statuses(declare({ public: true }, {}, { answersWhileStarting: true }))).toEqual([200, 400, 413]);
  });

  it('a user route: 401 with WWW-Authenticate and 403; tenant-scoped: 404 (a customerId that names no customer)', () => {
    const none = declare({ minRole: 'VIEWER', tenant: 'none' });
    expect(statuses(none)).toEqual([200, 400, 401, 403, 413, 503]);
    expect(Object.keys(none[401]!.headers!)).toEqual(['WWW-Authenticate']);
    const scoped = declare({ minRole: 'VIEWER', tenant: 'scoped' });
    expect(statuses(scoped)).toEqual([200, 400, 401, 403, 404, 413, 503]);
    expect(scoped[404]!.description).toContain('customerId');
  });

  it('a device route: 401; an assigned-device route also 403', () => {
    expect(statuses(declare({ device: 'any' }))).toEqual([200, 400, 401, 413, 503]);
    expect(statuses(declare({ device: 'assigned' }))).toEqual([200, 400, 401, 403, 413, 503]);
  });

  it('declared resource ids: 404; a parsed body: 415', () => {
    expect(statuses(declare({ minRole: 'VIEWER', tenant: 'none' }, {}, { resourceIds: { 'path.id': 'thing' } }))).toContain(404);
    expect(statuses(declare({ public: true }, jsonBody))).toEqual([200, 400, 413, 415, 503]);
    const binary = { body: { content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } } };
    expect(statuses(declare({ public: true }, binary))).toEqual([200, 400, 413, 503]);
  });

  it('a rate-limited route: 429 with Retry-After, saying what it counts; 503 has Retry-After too', () => {
    const limited = declare({ public: true }, {}, { rateLimited: 'wrong guesses, per address' });
    expect(limited[429]!.description).toContain('wrong guesses, per address');
    expect(Object.keys(limited[429]!.headers!)).toEqual(['Retry-After']);
    expect(Object.keys(limited[503]!.headers!)).toEqual(['Retry-After']);
  });

  it("a route's own declaration wins per status, keeping what it leaves out (content, headers)", () => {
    const own = declare(
      { public: true },
      {},
      { rateLimited: 'x' },
      { ...ok, 429: { description: 'Slow down' }, 409: { description: 'In use' } },
    );
    expect(statuses(own)).toEqual([200, 400, 409, 413, 429, 503]);
    expect(own[429]!.description).toBe('Slow down');
    expect(own[429]!.headers).toBeDefined();
    expect(own[429]!.content).toBeDefined();
  });

  it('refuses a 429 declared without the rateLimited option (what is counted must be said)', () => {
    expect(() => declare({ public: true }, {}, {}, { ...ok, 429: { description: 'Slow down' } })).toThrow(/rateLimited/);
  });
});

describe('id sweep exemptions', () => {
  it('are kept in the route table with their reasons', () => {
    declare(
      { minRole: 'VIEWER', tenant: 'scoped' },
      {},
      {
        resourceIds: { 'body.userIds[]': 'user' },
        notResourceIds: { 'query.selectTeamIds': 'a filter' },
        answersLikeMissing: { 'body.userIds[]': 'names them' },
      },
    );
    const entry = routeTable.at(-1)!;
    expect(entry.notResourceIds).toEqual({ 'query.selectTeamIds': 'a filter' });
    expect(entry.answersLikeMissing).toEqual({ 'body.userIds[]': 'names them' });
    declare({ minRole: 'VIEWER', tenant: 'scoped' });
    expect(routeTable.at(-1)).toMatchObject({ notResourceIds: {}, answersLikeMissing: {} });
  });

  it('refuse a parameter declared both as a resource id and as not one', () => {
    expect(() =>
      declare({ minRole: 'VIEWER', tenant: 'scoped' }, {}, { resourceIds: { 'path.id': 'user' }, notResourceIds: { 'path.id': 'why' } }),
    ).toThrow(/declared as a resource id and as not one/);
    expect(() =>
      declare(
        { minRole: 'VIEWER', tenant: 'scoped' },
        {},
        { resourceIds: { 'body.ids[]': 'user' }, notResourceIds: { 'body.ids': 'why' } },
      ),
    ).toThrow(/declared as a resource id and as not one/);
  });

  it('refuse answersLikeMissing for an id the route does not declare', () => {
    expect(() => declare({ minRole: 'VIEWER', tenant: 'scoped' }, {}, { answersLikeMissing: { 'body.userIds[]': 'why' } })).toThrow(
      /no declared resource id/,
    );
  });
});
