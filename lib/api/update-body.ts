/**
 * Update bodies: the API ignores an attribute sent as null (spec 1 general rule 2: null or omitted keeps
 * the value) and removes the value of a removable attribute sent as `""`. The console's forms write null
 * for "no value", so an update body turns those nulls into `""`; undefined attributes are left out.
 */
/** A form's values as an update body: each field may be left out, and one the form may clear (null) is sent as `""`. */
export type UpdateBody<T> = { [K in keyof T]?: Exclude<T[K], null | undefined> | (null extends T[K] ? '' : never) };

export function toUpdateBody<T extends Record<string, unknown>>(body: T): UpdateBody<T> {
  // Typed by construction: fromEntries cannot say which key keeps which value.
  return Object.fromEntries(
    Object.entries(body)
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => [key, value === null ? '' : value]),
  ) as UpdateBody<T>;
}
