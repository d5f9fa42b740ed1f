import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  fillIds,
  operationsOf,
  RealId,
  recombine,
  requestArbitrary,
  routeOf,
  toWire,
  type Draft,
  type OpenApiDocument,
} from './operations';
import { SchemaValidator } from './schema-validator';

const document: OpenApiDocument = {
  paths: {
    '/api/thing/{id}': {
      get: {
        operationId: 'getThing',
        security: [{ bearerAuth: [] }],
        parameters: [
          { name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } },
          { name: 'customerId', in: 'query', schema: { type: 'integer' } },
          { name: 'size', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100 } },
        ],
        responses: { 200: {} },
        'x-resource-ids': { 'path.id': 'thing' },
      },
    },
    '/api/thing/all': { get: { operationId: 'listThings', responses: { 200: {} } } },
    '/api/thing': {
      post: {
        operationId: 'createThing',
        security: [{ bearerAuth: [] }],
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/ThingCreate' } } } },
        responses: { 201: {} },
      },
    },
  },
  components: {
    schemas: {
      ThingCreate: {
        type: 'object',
        properties: { name: { type: 'string', minLength: 1 }, size: { type: 'integer' } },
        required: ['name'],
      },
    },
  },
};
const operations = operationsOf(document);
const [getThing, listThings, createThing] = operations as [(typeof operations)[0], (typeof operations)[0], (typeof operations)[0]];
const validator = new SchemaValidator(document);
const draft = (over: Partial<Draft>): Draft => ({
  operation: getThing,
  aim: 'valid',
  path: {},
  query: {},
  headers: {},
  credential: 'owner-bearer',
  malformedCookie: '%',
  ...over,
});

describe('operations', () => {
  it('reads each operation with who it admits', () => {
    expect(operations.map((op) => `${op.method} ${op.path} ${op.audience}`)).toEqual([
      'GET /api/thing/{id} user',
      'GET /api/thing/all public',
      'POST /api/thing user',
    ]);
  });

  it('routes a concrete path as the app does: a static segment before a parameter', () => {
    expect(routeOf(operations, 'GET', '/api/thing/all')).toBe(listThings);
    expect(routeOf(operations, 'GET', '/api/thing/0190a0a0-0000-7000-8000-000000000001?size=2')).toBe(getThing);
  });

  it('fills real ids by kind: the caller’s own, the other tenant’s, or one that names nothing', () => {
    const own = { thing: ['0190a0a0-0000-7000-8000-00000000000a'], customer: ['7'] };
    const foreign = { thing: ['0190a0a0-0000-7000-8000-00000000000b'], customer: ['8'] };
    expect(fillIds({ id: new RealId('uuid', 'thing', 3, 'own') }, own, foreign)).toEqual({ id: own.thing[0] });
    expect(fillIds([new RealId('integer', 'customer', 0, 'foreign')], own, foreign)).toEqual([8]);
    expect(fillIds(new RealId('integer', 'customer', 5, 'missing'), own, foreign)).toBe(1_000_000_005);
  });

  it('judges what goes on the wire: query text read as the schema type, a required body', () => {
    const path = { id: '0190a0a0-0000-7000-8000-000000000001' };
    expect(toWire(draft({ path, query: { size: 5, customerId: 7 } }), validator)).toMatchObject({
      request: { url: `/api/thing/${path.id}?customerId=7&size=5` },
      verdict: { valid: true },
    });
    expect(toWire(draft({ path, query: { size: 500 } }), validator).verdict).toMatchObject({
      valid: false,
      path: 'query.size',
      keyword: 'maximum',
    });
    expect(toWire(draft({ path, query: { size: 'x' } }), validator).verdict).toMatchObject({ valid: false, path: 'query.size' });
    expect(toWire(draft({ operation: createThing }), validator).verdict).toMatchObject({ valid: false, path: 'body', keyword: 'required' });
    expect(
      toWire(draft({ operation: createThing, body: { mediaType: 'application/json', value: { name: '' } } }), validator).verdict,
    ).toMatchObject({ valid: false, path: 'body/name', keyword: 'minLength' });
  });

  it('generates valid and invalid requests, the validator agreeing with most aims', () => {
    const drafts = fc.sample(requestArbitrary(createThing, { resolve: validator.resolve, bytes: fc.constant(new Uint8Array()) }), {
      seed: 4,
      numRuns: 200,
    });
    const verdicts = drafts.map((d) => ({ aim: d.aim, valid: toWire(d, validator).verdict.valid }));
    expect(verdicts.filter((v) => v.aim === 'valid' && v.valid !== true)).toEqual([]);
    expect(verdicts.filter((v) => v.aim === 'invalid' && v.valid === false).length).toBeGreaterThan(50);
  });
});

describe('recombine', () => {
  it('takes one input of a fresh request into an accepted one, or leaves it out', () => {
    const base = draft({ query: { customerId: 7, size: 5 } });
    const fresh = draft({ query: { size: 9 }, credential: 'admin-bearer' });
    const variants = [0, 1].map((pick) => recombine(base, fresh, pick));
    expect(variants.map((v) => v.query)).toEqual([{ size: 5 }, { customerId: 7, size: 9 }]);
    expect(variants.every((v) => v.credential === 'owner-bearer' && v.aim === 'valid')).toBe(true);
  });
});
