import { z } from '@hono/zod-openapi';

/**
 * The wire shape of a resource that answers `select` (spec 1): a client may select any subset of the fields,
 * so every field may be absent, and a field it selects explicitly comes back as `null` when unset. A field
 * declared required stays non-null (its column is NOT NULL); one declared optional may be null. Relation
 * objects follow the same rule inside. No server imports: the console imports schemas.
 */
export function projected<T extends z.ZodRawShape>(schema: z.ZodObject<T>): z.ZodObject<T> {
  const shape = Object.fromEntries(
    Object.entries(schema.shape).map(([key, field]) => {
      const value = field as z.ZodType;
      if (value instanceof z.ZodOptional)
        return [
          key,
          projectedInner(value.unwrap() as z.ZodType)
            .optional()
            .nullable(),
        ];

      return [key, projectedInner(value).optional()];
    }),
  );

  // The static type stays the full resource: what the default projection answers, which the console asks for.
  return z.object(shape) as unknown as z.ZodObject<T>;
}

/** Nested objects (relations) and arrays of them are projected too; everything else is kept as it is. */
function projectedInner(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodObject) return projected(schema as z.ZodObject<z.ZodRawShape>);
  if (schema instanceof z.ZodArray && schema.element instanceof z.ZodObject)
    return z.array(projected(schema.element as z.ZodObject<z.ZodRawShape>));

  return schema;
}
