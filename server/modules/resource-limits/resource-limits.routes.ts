import { z } from '@hono/zod-openapi';
import { PROTECTED_OPERATION_LIMIT } from '@/server/http/responses';
import { defineRoute } from '@/server/http/route';
import { customerIdParam } from '@/server/http/list-query';
import { ConfigBatchSchema, CustomerLimitSchema, ResetLimitsQuerySchema, ServerLimitSchema } from './resource-limits.schemas';

const serverLimitsResponse = {
  description: 'Every resource limit per tier',
  content: { 'application/json': { schema: z.array(ServerLimitSchema) } },
};

export const listServerLimitsRoute = defineRoute(
  { minRole: 'ADMIN', tenant: 'none' },
  {
    method: 'get',
    path: '/api/config/limits',
    operationId: 'listServerLimits',
    tags: ['Resource limits'],
    summary: 'Server-wide resource limits per license tier',
    responses: { 200: serverLimitsResponse },
  },
);

export const updateConfigBatchRoute = defineRoute(
  { minRole: 'ADMIN', tenant: 'none' },
  {
    method: 'put',
    path: '/api/config/batch',
    operationId: 'updateConfigBatch',
    tags: ['Resource limits'],
    summary: 'Set server-wide resource limits',
    description:
      'Names are `config.limit.<RESOURCE>.<TIER>` (STARTER or BUSINESS), values integers as strings from 0 to the maximum. All or nothing. A protected operation.',
    request: { body: { required: true, content: { 'application/json': { schema: ConfigBatchSchema } } } },
    responses: { 200: serverLimitsResponse },
  },
  { rateLimited: PROTECTED_OPERATION_LIMIT },
);

export const resetLimitsRoute = defineRoute(
  { minRole: 'ADMIN', tenant: 'none' },
  {
    method: 'delete',
    path: '/api/config/limits/batch',
    operationId: 'resetServerLimits',
    tags: ['Resource limits'],
    summary: 'Reset server-wide resource limits to their defaults',
    description: 'A protected operation.',
    request: { query: ResetLimitsQuerySchema },
    responses: { 204: { description: 'Reset' } },
  },
  { rateLimited: PROTECTED_OPERATION_LIMIT },
);

export const customerLimitsRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'get',
    path: '/api/customer/resourceLimits',
    operationId: 'getCustomerResourceLimits',
    tags: ['Resource limits'],
    summary: 'Effective limits and usage of the selected customer',
    description: "The selected `customerId`, or the caller's own customer.",
    request: { query: z.object({ customerId: customerIdParam }) },
    responses: { 200: { description: 'One row per resource', content: { 'application/json': { schema: z.array(CustomerLimitSchema) } } } },
  },
);
