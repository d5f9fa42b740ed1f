import { z } from '@hono/zod-openapi';

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
