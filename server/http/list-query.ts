import { z } from '@hono/zod-openapi';
import { SEARCH_DESCRIPTION } from '@/server/query/search/description';

/**
 * The shared query parameters of paged reads (spec 1). Paging values are parsed and
 * range-checked by server/query/paging so every endpoint answers the same 400s.
 */
export const customerIdParam = z
  .string()
  .optional()
  .openapi({ param: { name: 'customerId', in: 'query' }, type: 'integer', description: 'Tenant selector (spec 1); ADMIN: -1 or omitted = all tenants, `null` = what belongs to no tenant (unclaimed devices)' });

/** An optional query parameter of Unix epoch milliseconds (digits only), parsed to a number. */
export const epochMsQuery = (description: string) =>
  z
    .string()
    .regex(/^\d{1,15}$/, 'Epoch milliseconds')
    .transform(Number)
    .optional()
    .openapi({ type: 'integer', description });

export const ListQuerySchema = z.object({
  page: z.string().optional().openapi({ type: 'integer', minimum: 0, default: 0, description: 'Zero-based page index' }),
  size: z.string().optional().openapi({ type: 'integer', minimum: 1, maximum: 1000, default: 20, description: 'Page size' }),
  sort: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .openapi({ description: '`field,asc|desc`; repeat for several keys; nested fields with `.`' }),
  search: z.string().optional().openapi({ description: SEARCH_DESCRIPTION }),
  select: z.string().optional().openapi({ description: 'Projection: `*`, `a,b`, `rel(a,b)`' }),
});

export const ScopedListQuerySchema = ListQuerySchema.extend({ customerId: customerIdParam });

export const SelectQuerySchema = z.object({ select: z.string().optional().openapi({ description: 'Projection: `*`, `a,b`, `rel(a,b)`' }) });

export type ListQuery = z.infer<typeof ListQuerySchema>;

export function sortValues(sort: string | string[] | undefined): string[] {
  if (sort === undefined) return [];

  return Array.isArray(sort) ? sort : [sort];
}

/** The page envelope schema of spec 1 for an item schema. */
export function pageOf<T extends z.ZodType>(item: T, name: string) {
  return z
    .object({
      content: z.array(item),
      first: z.boolean(),
      last: z.boolean(),
      number: z.number().int(),
      numberOfElements: z.number().int(),
      size: z.number().int(),
      totalElements: z.number().int(),
      totalPages: z.number().int(),
      sort: z.string().optional(),
    })
    .openapi(name);
}

/** A JSON body or response of `schema` (the content object of a route's request body or response). */
export function json<T extends z.ZodType>(schema: T) {
  return { content: { 'application/json': { schema } } };
}
