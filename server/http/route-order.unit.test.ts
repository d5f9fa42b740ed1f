import { createRoute, z } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import { defineModule } from '@/server/modules/module';
import type { AppEnv } from './context';
import { OpenAPIHono } from '@hono/zod-openapi';
import { compareRoutes, registerModuleRoutes } from './route-order';

const route = (method: 'get' | 'post', path: string, operationId: string) =>
  createRoute({
    method,
    path,
    operationId,
    responses: { 200: { description: 'ok', content: { 'application/json': { schema: z.object({ by: z.string() }) } } } },
  });

describe('registerModuleRoutes', () => {
  it('answers a static path before a parameter, whatever the module order', async () => {
    const byId = defineModule({
      name: 'a',
      routes: (app) => void app.openapi(route('get', '/api/thing/{id}', 'getThing'), (c) => c.json({ by: 'id' }, 200)),
    });
    const summary = defineModule({
      name: 'b',
      routes: (app) => void app.openapi(route('get', '/api/thing/summary', 'thingSummary'), (c) => c.json({ by: 'summary' }, 200)),
    });
    for (const list of [
      [byId, summary],
      [summary, byId],
    ]) {
      const app = new OpenAPIHono<AppEnv>({ strict: false });
      registerModuleRoutes(app, list);
      expect(await (await app.request('/api/thing/summary')).json()).toEqual({ by: 'summary' });
      expect(await (await app.request('/api/thing/42')).json()).toEqual({ by: 'id' });
    }
  });

  it('refuses a method and path declared twice, even under other parameter names', () => {
    const one = defineModule({
      name: 'a',
      routes: (app) => void app.openapi(route('get', '/api/thing/{id}', 'getThing'), (c) => c.json({ by: 'a' }, 200)),
    });
    const two = defineModule({
      name: 'b',
      routes: (app) => void app.openapi(route('get', '/api/thing/{thingId}/', 'getThingAgain'), (c) => c.json({ by: 'b' }, 200)),
    });
    expect(() => registerModuleRoutes(new OpenAPIHono<AppEnv>(), [one, two])).toThrow(/declared twice: GET \/api\/thing\/\{\}/);
    const post = defineModule({
      name: 'c',
      routes: (app) => void app.openapi(route('post', '/api/thing/{id}', 'postThing'), (c) => c.json({ by: 'c' }, 200)),
    });
    expect(() => registerModuleRoutes(new OpenAPIHono<AppEnv>(), [one, post])).not.toThrow();
  });

  it('refuses one path template spelled with other parameter names by another operation', () => {
    const get = defineModule({
      name: 'a',
      routes: (app) => void app.openapi(route('get', '/api/thing/{id}', 'getThing'), (c) => c.json({ by: 'a' }, 200)),
    });
    const post = defineModule({
      name: 'b',
      routes: (app) => void app.openapi(route('post', '/api/thing/{parentId}', 'postThing'), (c) => c.json({ by: 'b' }, 200)),
    });
    expect(() => registerModuleRoutes(new OpenAPIHono<AppEnv>(), [get, post])).toThrow(
      /two spellings: \/api\/thing\/\{id\} and \/api\/thing\/\{parentId\}/,
    );
    const other = defineModule({
      name: 'c',
      routes: (app) => void app.openapi(route('post', '/api/thing/{id}/{parentId}', 'postSub'), (c) => c.json({ by: 'c' }, 200)),
    });
    expect(() => registerModuleRoutes(new OpenAPIHono<AppEnv>(), [get, other])).not.toThrow();
  });
});

describe('compareRoutes', () => {
  const sorted = (paths: string[]) =>
    paths
      .map((path) => ({ method: 'GET', path }))
      .sort(compareRoutes)
      .map((r) => r.path);

  it('puts static segments before parameters at the first segment that differs', () => {
    expect(sorted(['/api/customer/:id', '/api/customer/resourceLimits', '/api/customer'])).toEqual([
      '/api/customer',
      '/api/customer/resourceLimits',
      '/api/customer/:id',
    ]);
    expect(sorted(['/api/v2/file/:id', '/api/v2/file/upload/:sessionId/part/:n'])).toEqual([
      '/api/v2/file/upload/:sessionId/part/:n',
      '/api/v2/file/:id',
    ]);
  });

  it('puts path middleware first', () => {
    expect(
      [
        { method: 'GET', path: '/a' },
        { method: 'ALL', path: '/a/*' },
      ].sort(compareRoutes)[0]!.method,
    ).toBe('ALL');
  });
});
