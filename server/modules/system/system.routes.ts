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

export const metricsRoute = defineRoute(
  { public: true },
  {
    method: 'get',
    path: '/metrics',
    operationId: 'metrics',
    tags: ['System'],
    summary: 'Prometheus metrics of this instance (text exposition format 0.0.4)',
    description:
      'Served on the main port only when `METRICS_TOKEN` is configured, to a caller presenting it as a bearer token; ' +
      'on `METRICS_PORT` (a listener of its own) without a token. Otherwise it answers 404 like an unknown path. ' +
      'Labels name route templates, methods, status codes, queue names and states: never ids, tenants or raw paths.',
    security: [{ metricsToken: [] }],
    responses: {
      200: {
        description: 'The exposition (`Content-Type: text/plain; version=0.0.4; charset=utf-8`)',
        content: { 'text/plain': { schema: z.string() } },
      },
      401: { ...sharedErrors[401], description: 'No bearer token, or not the `METRICS_TOKEN` (`auth.error.unauthorized`)' },
      404: { ...sharedErrors[404], description: 'No `METRICS_TOKEN` is configured: not served here (`request.error.notFound`)' },
    },
  },
);
