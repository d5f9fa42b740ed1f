/**
 * The JSON Schema subset the OpenAPI 3.1 document uses (what zod-to-openapi emits), and the helpers the
 * arbitraries and the validator share: following `$ref`s, merging `allOf`, and the types a schema admits.
 */
export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  pattern?: string;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  readOnly?: boolean;
  writeOnly?: boolean;
  [keyword: string]: unknown;
};

export const JSON_TYPES = ['null', 'boolean', 'object', 'array', 'number', 'integer', 'string'] as const;
export type JsonType = (typeof JSON_TYPES)[number];

/** Resolves a `$ref` of the document (`#/components/schemas/X`), or undefined when it points nowhere. */
export type RefResolver = (ref: string) => JsonSchema | undefined;

/** A resolver over a document: any local JSON pointer (`#/a/b`), with `~0`/`~1` unescaped. */
export function documentResolver(document: unknown): RefResolver {
  return (ref) => {
    if (!ref.startsWith('#/')) return undefined;
    let node: unknown = document;
    for (const raw of ref.slice(2).split('/')) {
      const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
      if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return undefined;
      node = (node as Record<string, unknown>)[key];
    }

    return node !== null && typeof node === 'object' ? (node as JsonSchema) : undefined;
  };
}

/** Thrown when a schema names a `$ref` that does not resolve: what it describes cannot be known. */
export class DanglingRefError extends Error {
  constructor(readonly ref: string) {
    super(`$ref ${ref} does not resolve`);
  }
}

/** The schema a `$ref` chain ends at; sibling keywords of a `$ref` (3.1 allows them) are kept. */
function deref(schema: JsonSchema, resolve: RefResolver): JsonSchema {
  let current = schema;
  for (let hops = 0; current.$ref !== undefined; hops++) {
    if (hops > 32) throw new DanglingRefError(current.$ref);
    const target = resolve(current.$ref);
    if (!target) throw new DanglingRefError(current.$ref);
    const { $ref: _ref, ...siblings } = current;
    current = { ...target, ...withoutAnnotations(siblings) };
  }

  return current;
}

const ANNOTATIONS = new Set(['description', 'example', 'examples', 'title', 'default', 'deprecated']);
const withoutAnnotations = (schema: JsonSchema): JsonSchema =>
  Object.fromEntries(Object.entries(schema).filter(([key]) => !ANNOTATIONS.has(key)));

/** `allOf` folded into one schema (properties and `required` united, other keywords: the later wins). */
function mergeAllOf(schema: JsonSchema, resolve: RefResolver): JsonSchema {
  if (!schema.allOf) return schema;
  const { allOf, ...rest } = schema;
  const parts = [...allOf.map((part) => mergeAllOf(deref(part, resolve), resolve)), rest];

  return parts.reduce<JsonSchema>(
    (merged, part) => ({
      ...merged,
      ...part,
      properties: merged.properties || part.properties ? { ...merged.properties, ...part.properties } : undefined,
      required: merged.required || part.required ? [...new Set([...(merged.required ?? []), ...(part.required ?? [])])] : undefined,
    }),
    {},
  );
}

/** A schema with `$ref` and `allOf` resolved at its top level. */
export function flatten(schema: JsonSchema, resolve: RefResolver): JsonSchema {
  return mergeAllOf(deref(schema, resolve), resolve);
}

/** The JSON types a schema admits at its top level (undefined: it does not say, so any). */
export function declaredTypes(schema: JsonSchema): JsonType[] | undefined {
  if (schema.type !== undefined) return (Array.isArray(schema.type) ? schema.type : [schema.type]) as JsonType[];
  if (schema.properties || schema.required || schema.additionalProperties !== undefined) return ['object'];
  if (schema.items || schema.minItems !== undefined || schema.maxItems !== undefined) return ['array'];
  if (schema.pattern !== undefined || schema.format !== undefined || schema.minLength !== undefined || schema.maxLength !== undefined)
    return ['string'];
  if (
    schema.minimum !== undefined ||
    schema.maximum !== undefined ||
    schema.exclusiveMinimum !== undefined ||
    schema.exclusiveMaximum !== undefined
  )
    return ['number'];

  return undefined;
}

/** The JSON type of a value (`integer` for whole numbers). */
export function typeOf(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';

  return typeof value as JsonType;
}

/**
 * Every `$ref` in `node` that does not resolve, with where it was found (a JSON pointer into the
 * document): a strict client generator refuses the whole document for one of them.
 */
export function danglingRefs(document: unknown): { ref: string; at: string }[] {
  const resolve = documentResolver(document);
  const found: { ref: string; at: string }[] = [];
  const walk = (node: unknown, at: string) => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach((item, i) => walk(item, `${at}/${i}`));
    const ref = (node as JsonSchema).$ref;
    if (typeof ref === 'string' && !resolve(ref)) found.push({ ref, at });
    for (const [key, value] of Object.entries(node)) walk(value, `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
  };
  walk(document, '#');

  return found;
}
