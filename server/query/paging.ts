import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_PAGE, MAX_PAGE_SIZE } from './bounds.schemas';
import { ValidationError } from '../errors';

/** Paging parameters (spec 1 "Pagination and sorting parameters", DECISIONS §3). */
export type Paging = { page: number; size: number };

export { MAX_PAGE, MAX_PAGE_SIZE };

export type Page<T> = {
  content: T[];
  first: boolean;
  last: boolean;
  number: number;
  numberOfElements: number;
  size: number;
  totalElements: number;
  totalPages: number;
  sort?: string;
};

/** A query-string or JSON integer; `''` counts as absent. Accepts only plain decimal digits in strings. */
const integerParam = z.preprocess(
  (value) => (value === '' || value === null ? undefined : value),
  z
    .union([
      z.number(),
      z
        .string()
        .trim()
        .regex(/^[+-]?\d+$/)
        .transform(Number),
    ])
    .pipe(z.number().int())
    .optional(),
);

/** Schema for the raw `page` / `size` query parameters (for OpenAPI and validation). */
const pagingQuerySchema = z.object({
  page: integerParam,
  size: integerParam,
});

export type PagingInput = { page?: unknown; size?: unknown };

/**
 * Validates `page` (0..MAX_PAGE, default 0) and `size` (1..maxPageSize, default 20).
 * Anything else is a 400 `paging.error.invalid` (DECISIONS §3).
 */
export function parsePaging(input: PagingInput, maxPageSize = MAX_PAGE_SIZE): Paging {
  const parsed = pagingQuerySchema.safeParse(input);
  const page = parsed.success ? (parsed.data.page ?? 0) : Number.NaN;
  const size = parsed.success ? (parsed.data.size ?? DEFAULT_PAGE_SIZE) : Number.NaN;
  if (!parsed.success) {
    const parameter = String(parsed.error.issues[0]?.path[0] ?? 'page');
    throw invalid(parameter, input, `'${parameter}' must be an integer`, maxPageSize);
  }
  if (page < 0) throw invalid('page', input, `'page' must be 0 or more`, maxPageSize);
  if (size < 1 || size > maxPageSize) throw invalid('size', input, `'size' must be between 1 and ${maxPageSize}`, maxPageSize);
  // OFFSET is page * size: MAX_PAGE keeps it exact at every size up to MAX_PAGE_SIZE.
  if (page > MAX_PAGE || !Number.isSafeInteger(page * size))
    throw invalid('page', input, `'page' is too large (at most ${MAX_PAGE})`, maxPageSize);
  return { page, size };
}

function invalid(parameter: string, input: PagingInput, message: string, max: number): ValidationError {
  const value = parameter === 'size' ? input.size : input.page;
  return new ValidationError('paging.error.invalid', message, { parameter, value, max });
}

/** Builds the page envelope; `totalPages` is 0 and `last` true for an empty result. */
export function buildPage<T>(content: T[], paging: Paging, totalElements: number, sort?: string): Page<T> {
  const totalPages = Math.ceil(totalElements / paging.size);
  const page: Page<T> = {
    content,
    first: paging.page === 0,
    last: paging.page >= totalPages - 1,
    number: paging.page,
    numberOfElements: content.length,
    size: paging.size,
    totalElements,
    totalPages,
  };
  if (sort !== undefined) page.sort = sort;
  return page;
}
