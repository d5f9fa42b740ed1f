/**
 * Update bodies: the API ignores an attribute sent as null (spec 1 general rule 2: null or omitted keeps
 * the value) and removes the value of a removable attribute sent as `""`. The console's forms write null
 * for "no value", so an update body turns those nulls into `""`; undefined attributes are left out.
 */
export function toUpdateBody<T extends Record<string, unknown>>(body: T): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(body)
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => [key, value === null ? '' : value]),
  );
}
