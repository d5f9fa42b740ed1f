import { z } from '@hono/zod-openapi';
import { expect, it } from 'vitest';
import { projected } from './projection.schemas';

it('lets a projection leave out any field, and an explicitly selected unset field be null', () => {
  const schema = projected(
    z.object({ id: z.string(), note: z.string().optional(), owner: z.object({ id: z.number(), name: z.string().optional() }).optional() }),
  );
  expect(schema.safeParse({}).success).toBe(true);
  expect(schema.safeParse({ note: null, owner: null }).success).toBe(true);
  expect(schema.safeParse({ owner: { name: null } }).success).toBe(true);
  // A field declared required stays non-null; types stay checked.
  expect(schema.safeParse({ id: null }).success).toBe(false);
  expect(schema.safeParse({ id: 1 }).success).toBe(false);
  expect(schema.safeParse({ owner: { id: 'x' } }).success).toBe(false);
});
