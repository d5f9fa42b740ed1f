/*
 * Bounds the query compiler and the wire share: constants only, below server/http, whose wire schemas state them
 * (query-params.schemas.ts, wire.schemas.ts re-export them) while paging.ts and the search operators enforce them.
 */

/** Paging (spec 1 "Pagination and sorting parameters"): the page size by default and at most. */
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 1000;
/** The last page index a read takes: the row offset (page × size) stays an exact integer at any page size. */
export const MAX_PAGE = Math.floor(Number.MAX_SAFE_INTEGER / MAX_PAGE_SIZE);

/**
 * The latest instant the service takes, in epoch milliseconds: the last millisecond of year 9999. ISO-8601 and
 * PostgreSQL write four-digit years; a later instant (JavaScript's dates reach year 275760) is no timestamp
 * PostgreSQL reads back or takes as a parameter.
 */
export const MAX_EPOCH_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
