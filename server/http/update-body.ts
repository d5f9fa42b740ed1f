import { z } from '@hono/zod-openapi';

/*
 * Update bodies (spec 1 general rule 2): "an attribute sent as null or omitted is ignored, unless the
 * endpoint states it replaces the whole object". Every update body schema is built here, so the rule
 * holds the same way everywhere: every attribute is optional, top-level nulls are dropped before
 * validation, and services only ever see `undefined` ("keep") for them. An attribute that can be
 * removed is declared `clearable`: the empty string `""` removes its value (the service gets `null`).
 */

/** Schemas made by `clearable`, so `updateBody` can name them in the OpenAPI description. */
const clearables = new WeakSet<object>();

/** An attribute whose value can be removed with `""` (the parsed value is then `null`). */
export function clearable<T extends z.ZodType>(schema: T, description?: string) {
  const union = z.union([z.literal('').transform(() => null), schema]).openapi(description === undefined ? {} : { description });
  clearables.add(union);

  return union;
}

/** Top-level nulls of a JSON object removed: they mean "keep" (spec 1 rule 2). Anything else as is. */
export function dropNullAttributes(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;

  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null));
}

/**
 * `schema` or `null`, declared as `anyOf: [T, {type: null}]`. zod's own `.nullable()` of a named (registered) schema
 * would make the component itself nullable wherever it is used.
 */
export function orNull<T extends z.ZodType>(schema: T) {
  return z.union([schema, z.null()]);
}

/**
 * `shape` with `null` declared beside each attribute's own type (`anyOf: [T, {type: null}]` in the document), for the
 * attributes of a body whose nulls `dropNullAttributes` removes before validation: null is a valid value there, and
 * the document must say so. The parsed type is unchanged, since no null ever reaches the attribute's schema.
 */
export function nullsDropped<Shape extends z.ZodRawShape>(shape: Shape): Shape {
  return Object.fromEntries(Object.entries(shape).map(([key, schema]) => [key, orNull(schema as z.ZodType)])) as unknown as Shape;
}

/**
 * The body schema of a partial update, registered in the OpenAPI document as `name`. Every attribute
 * of `shape` becomes optional; an attribute sent as null or omitted keeps its value.
 */
export function updateBody<Shape extends z.ZodRawShape>(name: string, shape: Shape, description?: string) {
  const cleared = Object.entries(shape)
    .filter(([, schema]) => clearables.has(schema))
    .map(([key]) => `\`${key}\``);
  const rule =
    'Partial update: an attribute that is omitted or sent as null keeps its value (spec 1 general rule 2).' +
    (cleared.length ? ` Send "" to remove the value of ${cleared.join(', ')}.` : '');

  return z
    .preprocess(dropNullAttributes, z.object(nullsDropped(shape)).partial())
    .openapi(name, { description: description ? `${description} ${rule}` : rule });
}
