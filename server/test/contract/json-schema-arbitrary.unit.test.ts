import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DanglingRefError, invalidValue, matchingStrings, validValue, type ArbitraryOptions } from './json-schema-arbitrary';
import { danglingRefs, documentResolver, type JsonSchema } from './json-schema';
import { readings, SchemaValidator } from './schema-validator';

/** A small document with every keyword the API's OpenAPI document uses. */
const document = {
  components: {
    schemas: {
      Colour: { type: 'string', pattern: '^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$' },
      Tag: { type: 'string', minLength: 1, maxLength: 12, pattern: '^[A-Za-z0-9 _-]+$' },
      Page: {
        type: 'object',
        properties: {
          name: { type: 'string', minLength: 1, maxLength: 40 },
          colour: { $ref: '#/components/schemas/Colour' },
          tags: { type: 'array', items: { $ref: '#/components/schemas/Tag' }, maxItems: 5 },
          durationMs: { type: 'integer', minimum: 1000, maximum: 86_400_000 },
        },
        required: ['name'],
        additionalProperties: false,
      },
      Created: {
        type: 'object',
        properties: { id: { type: 'string', format: 'uuid', readOnly: true }, name: { type: 'string' } },
        required: ['id', 'name'],
      },
      Broken: { type: 'object', properties: { event: { $ref: '#/components/schemas/Missing' } } },
    },
  },
};

const resolve = documentResolver(document);
const options: ArbitraryOptions = { resolve };
const validator = new SchemaValidator(document);
const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/** Named schemas, each with the keywords it exercises. */
const schemas: Record<string, JsonSchema> = {
  'string with lengths': { type: 'string', minLength: 2, maxLength: 8 },
  'string: long maximum': { type: 'string', maxLength: 300 },
  'string with a pattern and lengths': ref('Tag'),
  uuid: { type: 'string', format: 'uuid' },
  email: { type: 'string', format: 'email', maxLength: 254 },
  date: { type: 'string', format: 'date' },
  'date-time': { type: 'string', format: 'date-time' },
  uri: { type: 'string', format: 'uri' },
  enum: { type: 'string', enum: ['DEVICE', 'DEVICEGROUP', 'ALL'] },
  const: { const: 'SCREEN' },
  'integer with bounds': { type: 'integer', minimum: 1, maximum: 1000 },
  'integer, exclusive bounds': { type: 'integer', exclusiveMinimum: 0, exclusiveMaximum: 10 },
  'integer, unbounded': { type: 'integer' },
  'number with bounds': { type: 'number', minimum: -90, maximum: 90 },
  boolean: { type: 'boolean' },
  'nullable string': { type: ['string', 'null'], maxLength: 4 },
  'array with item bounds': { type: 'array', items: { type: 'integer', minimum: 0 }, minItems: 1, maxItems: 3 },
  'closed object with refs': ref('Page'),
  'open object': { type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] },
  record: { type: 'object', additionalProperties: { type: 'string', maxLength: 3 } },
  anyOf: {
    anyOf: [
      { type: 'string', enum: ['null'] },
      { type: 'string', format: 'uuid' },
    ],
  },
  'oneOf objects': {
    oneOf: [
      {
        type: 'object',
        properties: { type: { type: 'string', enum: ['text'] }, text: { type: 'string' } },
        required: ['type', 'text'],
        additionalProperties: false,
      },
      {
        type: 'object',
        properties: { type: { type: 'string', enum: ['image'] }, fileId: { type: 'string', format: 'uuid' } },
        required: ['type', 'fileId'],
        additionalProperties: false,
      },
    ],
  },
  allOf: {
    allOf: [
      { type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] },
      { properties: { b: { type: 'boolean' } }, required: ['b'] },
    ],
  },
  'nested array of closed objects': { type: 'array', items: ref('Page'), maxItems: 2 },
};

const RUNS = 150;

describe('validValue', () => {
  it.each(Object.entries(schemas))('%s: every sample validates', (_name, schema) => {
    const samples = fc.sample(validValue(schema, options), { seed: 42, numRuns: RUNS });
    const refused = samples.map((value) => ({ value, verdict: validator.validate(schema, value) })).filter((s) => s.verdict.valid !== true);
    expect(refused.slice(0, 3)).toEqual([]);
  });

  it('leaves out readOnly properties, even required ones (they are only answered)', () => {
    const samples = fc.sample(validValue(ref('Created'), options), { seed: 1, numRuns: 50 }) as Record<string, unknown>[];
    expect(samples.every((sample) => !('id' in sample) && typeof sample.name === 'string')).toBe(true);
  });

  it('mixes in the hinted values where the hint applies', () => {
    const hinted = validValue(
      { type: 'object', properties: { fileId: { type: 'string', format: 'uuid' } }, required: ['fileId'] },
      {
        resolve,
        hint: (schema, path) =>
          schema.format === 'uuid' && path.at(-1) === 'fileId'
            ? { arbitrary: fc.constant('0190a0a0-0000-7000-8000-000000000001'), weight: 2 }
            : undefined,
      },
    );
    const ids = fc.sample(hinted, { seed: 3, numRuns: 100 }).map((value) => (value as { fileId: string }).fileId);
    expect(ids).toContain('0190a0a0-0000-7000-8000-000000000001');
    expect(new Set(ids).size).toBeGreaterThan(2);
  });

  it('sometimes adds undeclared properties where additionalProperties allows them, never where it is false', () => {
    const open = fc.sample(validValue(schemas['open object']!, options), { seed: 5, numRuns: 200 }) as object[];
    expect(open.some((value) => Object.keys(value).some((key) => key !== 'a'))).toBe(true);
    const closed = fc.sample(validValue(ref('Page'), options), { seed: 5, numRuns: 200 }) as object[];
    expect(closed.every((value) => Object.keys(value).every((key) => ['name', 'colour', 'tags', 'durationMs'].includes(key)))).toBe(true);
  });

  it('never generates U+0000 in text (refused by a documented rule of the API)', () => {
    const values = fc.sample(validValue({ type: 'string', maxLength: 50 }, options), { seed: 9, numRuns: 500 }) as string[];
    expect(values.some((value) => value.includes('\0'))).toBe(false);
  });

  it('throws DanglingRefError for a $ref that does not resolve', () => {
    expect(() => fc.sample(validValue(ref('Broken'), options), { seed: 1, numRuns: 5 })).toThrow(DanglingRefError);
  });
});

describe('invalidValue', () => {
  it.each(Object.entries(schemas))('%s: no sample validates', (_name, schema) => {
    const arbitrary = invalidValue(schema, options);
    expect(arbitrary).toBeDefined();
    const samples = fc.sample(arbitrary!, { seed: 42, numRuns: RUNS });
    const accepted = samples.filter((sample) => validator.validate(schema, sample.value).valid !== false);
    expect(accepted.slice(0, 3)).toEqual([]);
  });

  it('notes what each violation breaks, with its path', () => {
    const notes = new Set(fc.sample(invalidValue(ref('Page'), options)!, { seed: 7, numRuns: 400 }).map((sample) => sample.note));
    expect(notes).toContain('name: required');
    expect(notes).toContain('unexpectedProperty: additionalProperties');
    expect(notes).toContain('durationMs: maximum');
    expect(notes).toContain('colour: pattern');
    expect(notes).toContain('tags: maxItems');
    expect([...notes].some((note) => note.startsWith('tags[]:'))).toBe(true);
  });

  it('has nothing to offer for a schema that refuses nothing', () => {
    expect(invalidValue({}, options)).toBeUndefined();
  });
});

describe('matchingStrings', () => {
  it('generates strings that match a pattern', () => {
    const pattern = '^\\d{1,15}(,\\d{1,15}){0,49}$';
    const values = fc.sample(matchingStrings(pattern)!, { seed: 1, numRuns: 100 });
    expect(values.every((value) => new RegExp(pattern, 'u').test(value))).toBe(true);
  });

  it('answers null for a pattern no string matches (regular-expression flags pasted into it)', () => {
    expect(matchingStrings('^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i')).toBeNull();
    expect(matchingStrings('([')).toBeNull();
  });
});

describe('SchemaValidator', () => {
  it('reads wire text as the schema type', () => {
    expect(validator.validateWire({ type: 'integer', minimum: 1 }, ['12']).valid).toBe(true);
    expect(validator.validateWire({ type: 'integer' }, ['12abc']).valid).toBe(false);
    expect(validator.validateWire({ type: 'integer' }, ['1.5']).valid).toBe(false);
    expect(validator.validateWire({ type: 'boolean' }, ['yes']).valid).toBe(false);
    expect(validator.validateWire({ type: 'boolean' }, ['false']).valid).toBe(true);
    expect(validator.validateWire({ type: 'string', maxLength: 3 }, ['1234']).valid).toBe(false);
    expect(validator.validateWire({ type: 'array', items: { type: 'integer' } }, ['1', '2']).valid).toBe(true);
    expect(
      validator.validateWire({ anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] }, ['name,asc', 'id,desc']).valid,
    ).toBe(true);
    expect(readings('007')).toEqual(['007']);
  });

  it('judges an impossible date and a malformed uuid invalid', () => {
    expect(validator.validate({ type: 'string', format: 'date' }, '2026-02-31').valid).toBe(false);
    expect(validator.validate({ type: 'string', format: 'uuid' }, 'not-a-uuid').valid).toBe(false);
  });

  it('cannot judge a schema with a dangling $ref', () => {
    expect(validator.validate(ref('Broken'), {}).valid).toBe('unknown');
  });
});

describe('danglingRefs', () => {
  it('lists each $ref that points nowhere, with where it is', () => {
    expect(danglingRefs(document)).toEqual([{ ref: '#/components/schemas/Missing', at: '#/components/schemas/Broken/properties/event' }]);
  });
});
