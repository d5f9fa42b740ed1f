import { OpenAPIHono, z } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from './context';
import { responseConformance, type ResponseDrift } from './response-conformance';
import { defineRoute } from './route';

const Thing = z.object({ id: z.string(), size: z.number().optional(), owner: z.object({ id: z.number() }).optional() });
const route = defineRoute(
  { public: true },
  {
    method: 'get',
    path: '/conformance/{case}',
    operationId: 'conformanceCase',
    responses: { 200: { description: 'A thing', content: { 'application/json': { schema: Thing } } } },
  },
);

/** An app whose one route answers `body` with `status`, behind the conformance check. */
function appAnswering(status: number, body: unknown) {
  const drift: ResponseDrift[] = [];
  const app = new OpenAPIHono<AppEnv>();
  app.use(
    '*',
    responseConformance((d) => drift.push(d)),
  );
  app.openapi(route, (c) => c.json(body as never, status as 200));

  return { app, drift };
}

describe('responseConformance', () => {
  it('accepts an answer that matches its declaration', async () => {
    const { app, drift } = appAnswering(200, { id: 'a', size: 1, owner: { id: 2 } });
    await app.request('/conformance/ok');
    expect(drift).toEqual([]);
  });

  it('reports a wrong type, a missing required field and a key the schema does not declare, at any depth', async () => {
    for (const body of [{ id: 1 }, { size: 1 }, { id: 'a', extra: true }, { id: 'a', owner: { id: 1, name: 'x' } }]) {
      const { app, drift } = appAnswering(200, body);
      await app.request('/conformance/bad');
      expect(drift, JSON.stringify(body)).toHaveLength(1);
    }
    const { app, drift } = appAnswering(200, { id: 'a', owner: { id: 1, name: 'x' } });
    await app.request('/conformance/nested');
    expect(drift[0]!.problem).toContain('.owner.name');
  });

  it('reports any status the route does not declare, success or error; a declared error follows its schema', async () => {
    const created = appAnswering(201, { id: 'a' });
    await created.app.request('/conformance/created');
    expect(created.drift[0]).toMatchObject({ status: 201, problem: 'status not declared' });
    const conflict = appAnswering(409, { status: 409, key: 'thing.error.inUse', message: 'In use' });
    await conflict.app.request('/conformance/conflict');
    expect(conflict.drift[0]).toMatchObject({ status: 409, problem: 'status not declared' });
    // 400 is every route's (derived from the declaration).
    const invalid = appAnswering(400, { status: 400, key: 'request.error.invalid', message: 'Invalid' });
    await invalid.app.request('/conformance/invalid');
    expect(invalid.drift).toEqual([]);
    const badError = appAnswering(400, { error: 'bad' });
    await badError.app.request('/conformance/bad-error');
    expect(badError.drift).toHaveLength(1);
  });

  it('takes a 500 as undeclared by design (a bug, never a contract), in the shared error shape', async () => {
    const internal = appAnswering(500, { status: 500, key: 'server.error.internal', message: 'Internal server error' });
    await internal.app.request('/conformance/internal');
    expect(internal.drift).toEqual([]);
    const leaky = appAnswering(500, { stack: 'at db.ts:1' });
    await leaky.app.request('/conformance/leaky');
    expect(leaky.drift).toHaveLength(1);
  });

  it('reports a declared header the answer lacks (503 without Retry-After)', async () => {
    const { app, drift } = appAnswering(503, { status: 503, key: 'server.error.unavailable', message: 'Starting' });
    await app.request('/conformance/starting');
    expect(drift[0]).toMatchObject({ status: 503, problem: 'declared headers missing: Retry-After' });
  });
});
