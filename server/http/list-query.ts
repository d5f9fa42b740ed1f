import { z } from '@hono/zod-openapi';
import { QUERY_LIMITS } from '@/server/query/limits';
import { SEARCH_DESCRIPTION, SEARCH_EXAMPLE } from '@/server/query/search/description';
import { SORT_VALUE_PATTERN, sortValuePattern } from '@/server/query/sort';
import { pagingParams } from './query-params.schemas';
import { customerIdSelector, epochMsParam } from './wire.schemas';

/**
 * The shared query parameters of paged reads (spec 1). Paging values are parsed and
 * range-checked by server/query/paging so every endpoint answers the same 400s.
 */
export const customerIdParam = customerIdSelector.openapi({ param: { name: 'customerId', in: 'query' } });

/** An optional query parameter of Unix epoch milliseconds (digits only), parsed to a number. */
export const epochMsQuery = (description: string) => epochMsParam.optional().openapi({ description });

/*
 * `sort`, `search` and `select` are checked by the query language (server/query), which answers their own 400s
 * with the position and token (DECISIONS §3), so their schemas only state the rules (from the parser's own
 * constants) and leave the checking to it: `sort` as a pattern, the search and select languages described.
 */
const sortValueOf = (pattern: string, example: string) => z.string().openapi({ pattern, maxLength: QUERY_LIMITS.sortLength, example });
const sortParamOf = (pattern: string, description: string, example: string) =>
  z
    .union([sortValueOf(pattern, example), z.array(sortValueOf(pattern, example)).openapi({ maxItems: QUERY_LIMITS.sortKeys })])
    .optional()
    .openapi({ description, example });

const sortParam = sortParamOf(
  SORT_VALUE_PATTERN,
  `\`field\` or \`field,asc|desc\` (direction in any case, default asc); repeat the parameter for several keys (at most ${QUERY_LIMITS.sortKeys}); ` +
    `nested fields with \`.\` (at most ${QUERY_LIMITS.pathSegments} names). The field must be a sortable field of the resource (else 400 \`sort.error.unknownField\`).`,
  'name,asc',
);

/** `sort` over a fixed set of fields (report rows): the pattern lists them. */
export const sortParamFor = (fields: readonly string[], description: string) =>
  sortParamOf(sortValuePattern(fields), description, `${fields[0]},desc`);

const selectParam = z
  .string()
  .optional()
  .openapi({
    maxLength: QUERY_LIMITS.selectLength,
    description: `Projection: \`*\`, \`a,b\`, \`rel(a,b)\` (two levels at most; \`id\` is always answered; computed and select-only fields only when named). At most ${QUERY_LIMITS.selectLength} characters.`,
    example: 'id,name',
  });

export const ListQuerySchema = z.object({
  ...pagingParams,
  sort: sortParam,
  search: z.string().optional().openapi({ maxLength: QUERY_LIMITS.searchLength, description: SEARCH_DESCRIPTION, example: SEARCH_EXAMPLE }),
  select: selectParam,
});

export const ScopedListQuerySchema = ListQuerySchema.extend({ customerId: customerIdParam });

export const SelectQuerySchema = z.object({ select: selectParam });

function sortValues(sort: string | string[] | undefined): string[] {
  if (sort === undefined) return [];

  return Array.isArray(sort) ? sort : [sort];
}

/** What a handler's context gives: its route's validated query. */
type QueryOf<Q> = { req: { valid: (target: 'query') => Q } };
type Scoped<Q> = Omit<Q, 'customerId'>;

/**
 * A tenant-scoped route's validated query without the `customerId` tenant selector: the route's middleware has
 * already resolved it into the caller's scope (`ctx.scope`), so no handler or service reads it again.
 */
export function scopedQuery<Q extends object>(c: QueryOf<Q>): Scoped<Q> {
  const { customerId: _selector, ...query } = c.req.valid('query') as Q & { customerId?: unknown };

  return query;
}

/** A list route's validated query as its service verb takes it: `sort` as a list, the tenant selector left out (`scopedQuery`). */
export function listQuery<Q extends { sort?: string | string[] }>(c: QueryOf<Q>): Omit<Scoped<Q>, 'sort'> & { sort: string[] } {
  const { sort, ...query } = scopedQuery(c);

  return { ...query, sort: sortValues(sort) };
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
