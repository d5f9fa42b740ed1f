import { z } from '@hono/zod-openapi';
import { DEFAULT_PAGE_SIZE, MAX_PAGE, MAX_PAGE_SIZE } from '@/server/query/bounds.schemas';

/*
 * Query parameters arrive as strings; these parse them once, in the route's validator, so handlers and
 * services see typed values (no `=== 'true'` anywhere else). No server imports: schemas files use them.
 */

/** `true` or `false` on the wire, a boolean after validation (absent: undefined). */
export const booleanQuery = (description: string, defaultValue?: boolean) =>
  z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional()
    .openapi({ type: 'boolean', description, ...(defaultValue === undefined ? {} : { default: defaultValue }) });

/** A boolean query parameter the route requires. */
export const requiredBooleanQuery = (description: string) =>
  z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .openapi({ type: 'boolean', description });

/** Paging bounds (server/query/bounds.schemas.ts). */
export { MAX_PAGE };

/** `page` and `size` of paged reads, as the document states them; server/query/paging.ts checks them (`paging.error.invalid`). */
export const pagingParams = {
  page: z.string().optional().openapi({ type: 'integer', minimum: 0, maximum: MAX_PAGE, default: 0, description: 'Zero-based page index' }),
  size: z
    .string()
    .optional()
    .openapi({ type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE, description: 'Page size' }),
};
