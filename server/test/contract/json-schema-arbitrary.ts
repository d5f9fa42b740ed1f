import fc from 'fast-check';
import {
  DanglingRefError,
  declaredTypes,
  flatten,
  JSON_TYPES,
  typeOf,
  type JsonSchema,
  type JsonType,
  type RefResolver,
} from './json-schema';

/**
 * fast-check arbitraries from JSON Schemas: `validValue` aims at values the schema accepts, `invalidValue`
 * at values it refuses (one violation, somewhere inside). Both only aim: the contract test asks a JSON
 * Schema validator (schema-validator.ts) for the verdict of every value it sends.
 */

/** Where a value sits: property names from the schema's root, `[]` for array items. */
export type SchemaPath = readonly string[];

/**
 * Values to mix in at a place (real ids of the seeded tenant), weighted against the schema's own values
 * (weight 2), or undefined to leave the schema alone.
 */
export type Hint = (schema: JsonSchema, path: SchemaPath) => { arbitrary: fc.Arbitrary<unknown>; weight: number } | undefined;

export type ArbitraryOptions = {
  resolve: RefResolver;
  hint?: Hint;
  /** Below this depth objects get only their required properties and arrays their fewest items. */
  maxDepth?: number;
};

/** Thrown for a schema nothing can be generated from (a `$ref` that does not resolve). */
export { DanglingRefError };

const DEFAULT_MAX_DEPTH = 6;
const SAFE = Number.MAX_SAFE_INTEGER;

/**
 * Text without U+0000 and without surrogates: the API refuses NUL everywhere by one documented rule
 * (docs/decisions.md "HTTP and errors"), and a lone surrogate is not text. ASCII mostly, the rest of the
 * Basic Multilingual Plane sometimes, so JSON Schema's length (code points) and JavaScript's (UTF-16
 * units) agree.
 */
const textChar = fc
  .oneof(
    { arbitrary: fc.integer({ min: 0x20, max: 0x7e }), weight: 8 },
    { arbitrary: fc.constantFrom(0x09, 0x0a, 0x0d), weight: 1 },
    { arbitrary: fc.integer({ min: 0xa0, max: 0xd7ff }), weight: 2 },
  )
  .map((code) => String.fromCharCode(code));

function text(minLength: number, maxLength: number): fc.Arbitrary<string> {
  return fc.string({ unit: textChar, minLength, maxLength });
}

/** A regular expression of the document (ECMAScript, unanchored, Unicode), or undefined when it does not compile. */
export function patternOf(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return undefined;
  }
}

const patternArbitraries = new Map<string, fc.Arbitrary<string> | null>();

/**
 * Strings matching a pattern, or null when fast-check cannot produce one that matches (a pattern that
 * does not compile, uses what `stringMatching` does not support, or matches nothing).
 */
export function matchingStrings(pattern: string): fc.Arbitrary<string> | null {
  if (patternArbitraries.has(pattern)) return patternArbitraries.get(pattern)!;
  const regex = patternOf(pattern);
  let arbitrary: fc.Arbitrary<string> | null = null;
  if (regex) {
    try {
      const candidate = fc.stringMatching(regex);
      const samples = fc.sample(candidate, { seed: 1, numRuns: 20 });
      if (samples.every((sample) => regex.test(sample))) arbitrary = candidate;
    } catch {
      arbitrary = null;
    }
  }
  patternArbitraries.set(pattern, arbitrary);

  return arbitrary;
}

function validString(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = schema.maxLength ?? Math.max(minLength + 32, 32);
  const fits = (value: string) => [...value].length >= minLength && [...value].length <= maxLength;
  switch (schema.format) {
    case 'uuid':
      return fc.uuid();
    case 'email':
      // The part every e-mail validator agrees on: a dotted ASCII local part and a host name.
      return fc
        .tuple(
          fc.stringMatching(/^[a-z0-9]{1,12}(\.[a-z0-9]{1,8})?$/),
          fc.stringMatching(/^[a-z][a-z0-9-]{0,10}[a-z0-9]$/),
          fc.constantFrom('com', 'org', 'test', 'example'),
        )
        .map(([local, host, tld]) => `${local}@${host}.${tld}`)
        .filter(fits);
    case 'date':
      return isoDate().map((date) => date.toISOString().slice(0, 10));
    case 'date-time':
      return isoDate().map((date) => date.toISOString());
    case 'uri':
    case 'url':
      return fc
        .tuple(
          fc.constantFrom('https', 'http'),
          fc.stringMatching(/^[a-z][a-z0-9-]{0,12}\.(com|org|test)$/),
          fc.stringMatching(/^(\/[A-Za-z0-9._~-]{1,8}){0,3}$/),
        )
        .map(([scheme, host, path]) => `${scheme}://${host}${path}`)
        .filter(fits);
    default:
      break;
  }
  if (schema.pattern !== undefined) {
    const matching = matchingStrings(schema.pattern);
    if (matching) return schema.minLength !== undefined || schema.maxLength !== undefined ? matching.filter(fits) : matching;
  }
  const plain = text(minLength, Math.min(maxLength, minLength + 64));
  // The longest value the schema allows, too (ASCII: its length means the same to every validator).
  if (schema.maxLength !== undefined && maxLength > minLength + 64 && maxLength <= 100_000) {
    return fc.oneof(
      { arbitrary: plain, weight: 6 },
      { arbitrary: fc.string({ minLength: maxLength, maxLength, unit: 'grapheme-ascii' }).filter((s) => !s.includes('\0')), weight: 1 },
    );
  }

  return plain;
}

function isoDate(): fc.Arbitrary<Date> {
  return fc.date({ min: new Date('1970-01-01T00:00:00.000Z'), max: new Date('2100-12-31T23:59:59.999Z'), noInvalidDate: true });
}

function numberBounds(schema: JsonSchema, integer: boolean): { min: number; max: number } {
  const step = integer ? 1 : Number.EPSILON * 1024;
  let min = schema.minimum ?? -SAFE;
  let max = schema.maximum ?? SAFE;
  if (schema.exclusiveMinimum !== undefined) min = Math.max(min, schema.exclusiveMinimum + step);
  if (schema.exclusiveMaximum !== undefined) max = Math.min(max, schema.exclusiveMaximum - step);
  if (integer) {
    min = Math.ceil(min);
    max = Math.floor(max);
  }

  return { min, max };
}

function validInteger(schema: JsonSchema): fc.Arbitrary<number> {
  const { min, max } = numberBounds(schema, true);
  if (min > max) return fc.constant(min);
  const whole = fc.bigInt({ min: BigInt(Math.max(min, -SAFE)), max: BigInt(Math.min(max, SAFE)) }).map(Number);
  const smallMin = Math.max(min, -1_000);
  const smallMax = Math.min(max, 1_000);
  const options: fc.WeightedArbitrary<number>[] = [{ arbitrary: whole, weight: 2 }];
  if (smallMin <= smallMax) options.push({ arbitrary: fc.integer({ min: smallMin, max: smallMax }), weight: 4 });
  const edges = [schema.minimum, schema.maximum].filter((edge): edge is number => edge !== undefined && edge >= min && edge <= max);
  if (edges.length > 0) options.push({ arbitrary: fc.constantFrom(...edges), weight: 1 });

  return fc.oneof(...options);
}

function validNumber(schema: JsonSchema): fc.Arbitrary<number> {
  const { min, max } = numberBounds(schema, false);
  if (min > max) return fc.constant(min);

  return fc.oneof(
    {
      arbitrary: validInteger({
        ...schema,
        exclusiveMinimum: undefined,
        exclusiveMaximum: undefined,
        minimum: Math.ceil(min),
        maximum: Math.floor(max),
      }),
      weight: 1,
    },
    { arbitrary: fc.double({ min, max, noNaN: true, noDefaultInfinity: true }).map((n) => (Object.is(n, -0) ? 0 : n)), weight: 2 },
  );
}

/** Property names a schema does not declare, for values its `additionalProperties` decides about. */
const extraKey = fc.stringMatching(/^[a-z][A-Za-z0-9]{0,11}$/).map((name) => `x${name}`);

/** Values the schema accepts (aimed at; the validator has the last word). */
export function validValue(schema: JsonSchema, options: ArbitraryOptions, path: SchemaPath = [], depth = 0): fc.Arbitrary<unknown> {
  const flat = flatten(schema, options.resolve);
  const core = validCore(flat, options, path, depth);
  const hinted = options.hint?.(flat, path);
  // The document's own examples are values its authors meant to be valid: send them too.
  const examples = [...(flat.example !== undefined ? [flat.example] : []), ...(Array.isArray(flat.examples) ? flat.examples : [])];
  const withExamples =
    examples.length > 0 ? fc.oneof({ arbitrary: fc.constantFrom(...examples), weight: 1 }, { arbitrary: core, weight: 2 }) : core;

  return hinted ? fc.oneof(hinted, { arbitrary: withExamples, weight: 2 }) : withExamples;
}

function validCore(schema: JsonSchema, options: ArbitraryOptions, path: SchemaPath, depth: number): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const branches = schema.oneOf ?? schema.anyOf;
  if (branches) {
    const { oneOf: _oneOf, anyOf: _anyOf, ...siblings } = schema;

    return fc.oneof(...branches.map((branch) => validValue({ ...siblings, ...flatten(branch, options.resolve) }, options, path, depth)));
  }
  const types = declaredTypes(schema) ?? (['string', 'integer', 'boolean', 'object', 'array'] as JsonType[]);

  return fc.oneof(
    ...types.map((type) => ({ arbitrary: validOfType(type, schema, options, path, depth), weight: type === 'null' ? 1 : 4 })),
  );
}

function validOfType(
  type: JsonType,
  schema: JsonSchema,
  options: ArbitraryOptions,
  path: SchemaPath,
  depth: number,
): fc.Arbitrary<unknown> {
  const deep = depth >= (options.maxDepth ?? DEFAULT_MAX_DEPTH);
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return validInteger(schema);
    case 'number':
      return validNumber(schema);
    case 'string':
      return validString(schema);
    case 'array': {
      const minLength = schema.minItems ?? 0;
      const maxLength = deep ? minLength : Math.min(schema.maxItems ?? minLength + 4, minLength + 4);
      const items = schema.items ? validValue(schema.items, options, [...path, '[]'], depth + 1) : fc.jsonValue({ maxDepth: 1 });

      return fc.array(items, { minLength, maxLength });
    }
    case 'object':
      return validObject(schema, options, path, depth, deep);
    default:
      return fc.constant(null);
  }
}

/** Request bodies leave out `readOnly` properties (OpenAPI: they are only answered). */
function writableProperties(schema: JsonSchema, resolve: RefResolver): [string, JsonSchema][] {
  return Object.entries(schema.properties ?? {}).filter(
    ([, property]) => (property.$ref ? resolve(property.$ref) : property)?.readOnly !== true,
  );
}

function validObject(
  schema: JsonSchema,
  options: ArbitraryOptions,
  path: SchemaPath,
  depth: number,
  deep: boolean,
): fc.Arbitrary<Record<string, unknown>> {
  const properties = writableProperties(schema, options.resolve);
  const required = new Set(schema.required ?? []);
  const chosen = deep ? properties.filter(([name]) => required.has(name)) : properties;
  const model = Object.fromEntries(chosen.map(([name, property]) => [name, validValue(property, options, [...path, name], depth + 1)]));
  const record = fc.record(model, { requiredKeys: chosen.map(([name]) => name).filter((name) => required.has(name)) });
  const declared = new Set(Object.keys(schema.properties ?? {}));
  const additional = schema.additionalProperties;
  if (additional === false || deep) return record;
  // Undeclared properties are valid unless `additionalProperties: false` says otherwise.
  const extraValue =
    typeof additional === 'object' ? validValue(additional, options, [...path, '*'], depth + 1) : fc.jsonValue({ maxDepth: 1 });
  const extras = fc.dictionary(
    extraKey.filter((key) => !declared.has(key)),
    extraValue,
    { maxKeys: typeof additional === 'object' && declared.size === 0 ? 3 : 1 },
  );
  const sometimes = fc.oneof({ arbitrary: fc.constant({}), weight: 3 }, { arbitrary: extras, weight: 1 });

  return fc.tuple(record, sometimes).map(([values, extra]) => ({ ...extra, ...values }));
}

/** A value refused by a schema, with a note on what it breaks (`name: maxLength`). */
export type Violation = { value: unknown; note: string };

const note = (path: SchemaPath, what: string) => `${path.length > 0 ? path.join('.').replace(/\.\[\]/g, '[]') : '(root)'}: ${what}`;

/** A value of each JSON type, for "wrong type" violations. */
const VALUES_BY_TYPE: Record<JsonType, unknown> = {
  null: null,
  boolean: true,
  object: { x: 1 },
  array: [1],
  number: 1.5,
  integer: 7,
  string: 'x',
};

/**
 * Values the schema refuses (aimed at), each breaking one rule somewhere inside: a wrong type, a value
 * outside the enum, bounds, lengths, pattern or format, a missing required or an undeclared property
 * where `additionalProperties` is false. Undefined when the schema refuses nothing (`{}`).
 */
export function invalidValue(
  schema: JsonSchema,
  options: ArbitraryOptions,
  path: SchemaPath = [],
  depth = 0,
): fc.Arbitrary<Violation> | undefined {
  const flat = flatten(schema, options.resolve);
  const candidates = invalidCandidates(flat, options, path, depth);

  return candidates.length > 0 ? fc.oneof(...candidates) : undefined;
}

function invalidCandidates(schema: JsonSchema, options: ArbitraryOptions, path: SchemaPath, depth: number): fc.Arbitrary<Violation>[] {
  const out: fc.Arbitrary<Violation>[] = [];
  const violation = (value: unknown, what: string) => fc.constant<Violation>({ value, note: note(path, what) });
  if (schema.const !== undefined || schema.enum) {
    const allowed = schema.enum ?? [schema.const];
    const outside = ['NOT_IN_ENUM', 'not in enum', 12_345].find((value) => !allowed.some((x) => x === value));
    out.push(violation(outside, schema.enum ? 'enum' : 'const'));
  }
  const branches = schema.oneOf ?? schema.anyOf;
  const types = branches ? branchTypes(branches, options) : declaredTypes(schema);
  if (types) {
    const admits = (type: JsonType) => types.includes(type) || (type === 'integer' && types.includes('number'));
    const wrong = JSON_TYPES.filter((type) => !admits(type));
    if (wrong.length > 0)
      out.push(fc.constantFrom(...wrong).map((type) => ({ value: VALUES_BY_TYPE[type], note: note(path, `type ${type}`) })));
  }
  if (branches) {
    for (const branch of branches) {
      const inner = invalidValue(branch, options, path, depth);
      if (inner) out.push(inner);
    }

    return out;
  }
  const has = (type: JsonType) => types === undefined || types.includes(type);
  if (has('string')) out.push(...stringViolations(schema, path));
  if (has('integer') || has('number')) out.push(...numberViolations(schema, path, !has('number')));
  if (has('array') && depth < (options.maxDepth ?? DEFAULT_MAX_DEPTH)) out.push(...arrayViolations(schema, options, path, depth));
  if (has('object') && depth < (options.maxDepth ?? DEFAULT_MAX_DEPTH)) out.push(...objectViolations(schema, options, path, depth));

  return out;
}

/** The JSON types a list of branches admits together (undefined: some branch admits any). */
function branchTypes(branches: JsonSchema[], options: ArbitraryOptions): JsonType[] | undefined {
  const all = new Set<JsonType>();
  for (const branch of branches) {
    const flat = flatten(branch, options.resolve);
    const inner = flat.oneOf ?? flat.anyOf;
    const types = inner
      ? branchTypes(inner, options)
      : flat.enum || flat.const !== undefined
        ? [...new Set((flat.enum ?? [flat.const]).map(typeOf))]
        : declaredTypes(flat);
    if (!types) return undefined;
    types.forEach((type) => all.add(type));
  }

  return [...all];
}

const FORMAT_VIOLATIONS: Record<string, string[]> = {
  uuid: ['not-a-uuid', '123e4567e89b12d3a456426614174000', '123e4567-e89b-12d3-a456-42661417400g'],
  email: ['no-at-sign', 'two@@example.com', '@example.com'],
  date: ['2026-02-31', '2026-13-01', '26-1-1', 'tomorrow'],
  'date-time': ['2026-11-28 12:00', '2026-02-31T00:00:00Z', 'now'],
  uri: ['not a uri', '//no-scheme'],
};

function stringViolations(schema: JsonSchema, path: SchemaPath): fc.Arbitrary<Violation>[] {
  const out: fc.Arbitrary<Violation>[] = [];
  const min = schema.minLength ?? 0;
  if (schema.maxLength !== undefined && schema.maxLength < 1_000_000)
    out.push(fc.constant({ value: 'a'.repeat(schema.maxLength + 1), note: note(path, 'maxLength') }));
  if (min > 0) out.push(fc.constant({ value: 'a'.repeat(min - 1), note: note(path, 'minLength') }));
  const regex = schema.pattern === undefined ? undefined : patternOf(schema.pattern);
  if (regex) {
    const breaking = ['', ' ', '!', 'ZZ', 'éé', 'a,b', '0'.repeat(Math.max(min, 1)), 'x'.repeat(Math.max(min, 3))].filter(
      (value) => !regex.test(value),
    );
    if (breaking.length > 0) out.push(fc.constantFrom(...breaking).map((value) => ({ value, note: note(path, 'pattern') })));
  }
  const formatBreakers = schema.format ? FORMAT_VIOLATIONS[schema.format] : undefined;
  if (formatBreakers) out.push(fc.constantFrom(...formatBreakers).map((value) => ({ value, note: note(path, `format ${schema.format}`) })));

  return out;
}

function numberViolations(schema: JsonSchema, path: SchemaPath, integer: boolean): fc.Arbitrary<Violation>[] {
  const out: fc.Arbitrary<Violation>[] = [];
  const below = schema.exclusiveMinimum ?? (schema.minimum !== undefined ? schema.minimum - 1 : undefined);
  const above = schema.exclusiveMaximum ?? (schema.maximum !== undefined ? schema.maximum + 1 : undefined);
  if (below !== undefined) out.push(fc.constant({ value: below, note: note(path, 'minimum') }));
  if (above !== undefined) out.push(fc.constant({ value: above, note: note(path, 'maximum') }));
  if (integer) out.push(fc.constant({ value: (schema.minimum ?? 0) + 0.5, note: note(path, 'not an integer') }));

  return out;
}

function arrayViolations(schema: JsonSchema, options: ArbitraryOptions, path: SchemaPath, depth: number): fc.Arbitrary<Violation>[] {
  const out: fc.Arbitrary<Violation>[] = [];
  const item = schema.items ? validValue(schema.items, options, [...path, '[]'], depth + 1) : fc.constant(1);
  const min = schema.minItems ?? 0;
  if (min > 0)
    out.push(fc.array(item, { minLength: min - 1, maxLength: min - 1 }).map((value) => ({ value, note: note(path, 'minItems') })));
  if (schema.maxItems !== undefined && schema.maxItems < 2_000) {
    out.push(
      fc
        .array(item, { minLength: schema.maxItems + 1, maxLength: schema.maxItems + 1 })
        .map((value) => ({ value, note: note(path, 'maxItems') })),
    );
  }
  const badItem = schema.items ? invalidValue(schema.items, options, [...path, '[]'], depth + 1) : undefined;
  if (badItem) {
    out.push(
      fc
        .tuple(fc.array(item, { minLength: Math.max(min - 1, 0), maxLength: Math.max(min - 1, 0) }), badItem)
        .map(([others, bad]) => ({ value: [...others, bad.value], note: bad.note })),
    );
  }

  return out;
}

function objectViolations(schema: JsonSchema, options: ArbitraryOptions, path: SchemaPath, depth: number): fc.Arbitrary<Violation>[] {
  const out: fc.Arbitrary<Violation>[] = [];
  const whole = validObject(schema, options, path, depth, false);
  const writable = writableProperties(schema, options.resolve);
  const readOnly = new Set(Object.keys(schema.properties ?? {}).filter((name) => !writable.some(([key]) => key === name)));
  const required = (schema.required ?? []).filter((name) => !readOnly.has(name));
  if (required.length > 0) {
    out.push(
      fc.tuple(whole, fc.constantFrom(...required)).map(([value, missing]) => {
        const { [missing]: _dropped, ...rest } = value;

        return { value: rest, note: note([...path, missing], 'required') };
      }),
    );
  }
  for (const [name, property] of writable) {
    const bad = invalidValue(property, options, [...path, name], depth + 1);
    if (bad) out.push(fc.tuple(whole, bad).map(([value, broken]) => ({ value: { ...value, [name]: broken.value }, note: broken.note })));
  }
  if (schema.additionalProperties === false)
    out.push(
      whole.map((value) => ({
        value: { ...value, unexpectedProperty: 1 },
        note: note([...path, 'unexpectedProperty'], 'additionalProperties'),
      })),
    );
  if (typeof schema.additionalProperties === 'object') {
    const bad = invalidValue(schema.additionalProperties, options, [...path, '*'], depth + 1);
    if (bad) out.push(fc.tuple(whole, bad).map(([value, broken]) => ({ value: { ...value, xExtra: broken.value }, note: broken.note })));
  }

  return out;
}
