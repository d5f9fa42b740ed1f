import { z } from '@hono/zod-openapi';
import { sharedErrors } from '@/server/http/responses';
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
    summary: 'Readiness: 200 while the service serves and its database and blob storage answer, 503 otherwise',
    description:
      'For a load balancer or proxy: 503 while the service starts or runs its migrations, when the database does not ' +
      'answer a `select 1` or the blob storage its probe within 2 s, and once shutdown has begun. The probes run at most ' +
      'once a second, however many requests ask. `/healthz` is the liveness probe (no database).',
    responses: {
      200: { description: 'Ready', content: { 'application/json': { schema: HealthSchema } } },
      503: {
        ...sharedErrors[503],
        description:
          'Not ready (`server.error.unavailable`); `details.check` names what failed: `starting`, `migrations`, `database`, `storage` or `stopping`',
      },
    },
  },
  { answersWhileStarting: true },
);
