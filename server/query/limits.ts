import { ValidationError } from '../errors';

/**
 * Input limits of the query language. The parsers and compilers recurse per nesting level, so deep
 * or huge inputs are refused with a 400 (position and limit in `details`) before any work is done.
 * A URL cannot carry more than Node's 16 KiB of request head anyway; these bounds are far above
 * what the console or a script sends.
 */
export const QUERY_LIMITS = {
  /** Characters of one `search` expression (after the HTTP layer's decoding). */
  searchLength: 16_384,
  /** Nested parentheses in one `search`. */
  searchDepth: 32,
  /** Segments of a dotted field path (`teamAssignments.team.id` has 3), in `search` and `sort`. */
  pathSegments: 8,
  /** Characters of one `select`. */
  selectLength: 4_096,
  /** `sort` values per request. */
  sortKeys: 16,
  /** Characters of one `sort` value. */
  sortLength: 256,
} as const;

/**
 * 400 `<parameter>.error.tooLong` / `.tooDeep` / `.tooMany` with `details.position` (0-based) and `details.limit`.
 */
export function limitError(
  key: `${'search' | 'select' | 'sort'}.error.${'tooLong' | 'tooDeep' | 'tooMany'}`,
  message: string,
  details: { position: number; token: string; limit: number },
): ValidationError {
  return new ValidationError(key, message, details);
}
