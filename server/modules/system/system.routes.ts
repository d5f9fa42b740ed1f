import { z } from '@hono/zod-openapi';
import { defineRoute } from '@/server/http/route';

const HealthSchema = z.object({ status: z.enum(['ok', 'starting', 'unavailable']) }).openapi('Health');

export const healthRoute = defineRoute(
  { public: true },
  {
    method: 'get',
    path: '/healthz',
    operationId: 'health',
    tags: ['System'],
    summary: 'Liveness: 200 while the process runs',
    responses: { 200: { description: 'Alive', content: { 'application/json': { schema: HealthSchema } } } },
  },
  { answersWhileStarting: true },
);

export const readyRoute = defineRoute(
  { public: true },
  {
    method: 'get',
    path: '/readyz',
    operationId: 'ready',
    tags: ['System'],
    summary: 'Readiness: 200 once migrations ran and the database and storage answer, 503 before',
    responses: {
      200: { description: 'Ready', content: { 'application/json': { schema: HealthSchema } } },
      503: { description: 'Not ready', content: { 'application/json': { schema: HealthSchema } } },
    },
  },
  { answersWhileStarting: true },
);
