import fc from 'fast-check';
import { invalidValue, validValue, type ArbitraryOptions, type Hint, type SchemaPath, type Violation } from './json-schema-arbitrary';
import { DanglingRefError, flatten, type JsonSchema, type RefResolver } from './json-schema';
import type { SchemaValidator, Verdict } from './schema-validator';

/**
 * The operations of an OpenAPI document, and for each one an arbitrary of requests: valid ones, and
 * invalid ones that break one part (a path, query or header value, the body, or a required part left
 * out). Ids are drafted as `RealId`s, filled in when the caller is known (its tenant's real ids, another
 * tenant's, or none); then the request is written as it goes on the wire and judged by the validator.
 */

type OpenApiParameter = { name: string; in: 'path' | 'query' | 'header' | 'cookie'; required?: boolean; schema?: JsonSchema };
type OpenApiOperation = {
  operationId: string;
  parameters?: OpenApiParameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, unknown>;
  security?: Record<string, string[]>[];
  'x-minimum-role'?: string;
  'x-caller'?: string;
  'x-resource-ids'?: Record<string, string>;
};
export type OpenApiDocument = {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, JsonSchema> };
};

/**
 * Who an operation admits: anyone, a user (bearer token or session cookie), a device, an OAuth client (HTTP Basic), or a
 * webhook API key (its own header or query parameter, which the generated request fills with made-up keys).
 */
type Audience = 'public' | 'user' | 'device' | 'client' | 'apiKey';

export type Operation = {
  method: string;
  path: string;
  operationId: string;
  audience: Audience;
  spec: OpenApiOperation;
};

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

export function operationsOf(document: OpenApiDocument): Operation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, spec]) => ({ method: method.toUpperCase(), path, operationId: spec.operationId, audience: audienceOf(spec), spec })),
  );
}

function audienceOf(spec: OpenApiOperation): Audience {
  const schemes = new Set((spec.security ?? []).flatMap((requirement) => Object.keys(requirement)));
  if (schemes.has('deviceToken')) return 'device';
  if (schemes.has('bearerAuth') || schemes.has('sessionCookie')) return 'user';
  if (schemes.has('clientBasic')) return 'client';
  if (schemes.has('webhookApiKey')) return 'apiKey';

  return 'public';
}

/** Whether the operation declares `status` (exactly, as a range such as `4XX`, or by `default`). */
export function declaresStatus(operation: Operation, status: number): boolean {
  const responses = operation.spec.responses ?? {};

  return String(status) in responses || `${String(status)[0]}XX` in responses || 'default' in responses;
}

/**
 * An id chosen when the caller is known: one of its seeded tenant (`own`), of the other tenant
 * (`foreign`), or one that names nothing (`missing`).
 */
export class RealId {
  constructor(
    readonly type: 'uuid' | 'integer',
    readonly kind: string | undefined,
    readonly pick: number,
    readonly mode: 'own' | 'foreign' | 'missing',
  ) {}
}

/** What a request carries as credentials; the runner turns it into headers for the chosen actor. */
export type Credential =
  | 'owner-bearer'
  | 'admin-bearer'
  | 'device-bearer'
  | 'owner-cookie'
  | 'owner-cookie-no-origin'
  | 'none'
  | 'unknown-bearer'
  | 'malformed-cookie'
  | 'not-bearer'
  | 'client-basic'
  | 'device-basic'
  | 'wrong-basic';

const CREDENTIALS: Record<Audience, [Credential, number][]> = {
  user: [
    ['owner-bearer', 14],
    ['admin-bearer', 14],
    ['owner-cookie', 3],
    ['owner-cookie-no-origin', 1],
    ['device-bearer', 1],
    ['none', 1],
    ['unknown-bearer', 1],
    ['malformed-cookie', 1],
    ['not-bearer', 1],
  ],
  device: [
    ['device-bearer', 20],
    ['owner-bearer', 1],
    ['none', 1],
    ['unknown-bearer', 1],
    ['malformed-cookie', 2],
  ],
  apiKey: [['none', 1]],
  public: [
    ['none', 10],
    ['owner-bearer', 1],
    ['device-bearer', 1],
    ['malformed-cookie', 2],
  ],
  client: [
    ['client-basic', 10],
    ['device-basic', 4],
    ['wrong-basic', 1],
    ['none', 1],
    ['malformed-cookie', 1],
  ],
};

/** Whether the credential is one the operation admits (a refusal of it for its own sake is then no defect). */
export function admits(operation: Operation, credential: Credential): boolean {
  switch (operation.audience) {
    case 'public':
      return true;
    case 'user':
      return (
        credential === 'owner-bearer' ||
        credential === 'admin-bearer' ||
        credential === 'owner-cookie' ||
        (credential === 'owner-cookie-no-origin' && operation.method === 'GET')
      );
    case 'device':
      return credential === 'device-bearer';
    case 'client':
      return credential === 'client-basic' || credential === 'device-basic';
    case 'apiKey':
      return false;
  }
}

/** Session cookie values that are not cookies next-auth could have written (`%` alone: a URIError). */
const MALFORMED_COOKIES = ['%', '%E0%A4%A', 'abc%zz', '%%', 'eyJhbGciOiJkaXIifQ..x.y.z', '"quoted"', 'a=b=c'];

/** A request before the caller is known: typed values, `RealId`s where an id goes. */
export type Draft = {
  operation: Operation;
  aim: 'valid' | 'invalid';
  note?: string;
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  headers: Record<string, unknown>;
  body?: { mediaType: string; value: unknown };
  credential: Credential;
  malformedCookie: string;
};

export type RequestContext = {
  resolve: RefResolver;
  /** Bytes to send where the body is binary (an image, a chunk). */
  bytes: fc.Arbitrary<Uint8Array>;
};

const NO_BODY = Symbol('no body');

/** Requests for one operation: valid and invalid ones in about equal numbers. */
export function requestArbitrary(operation: Operation, context: RequestContext): fc.Arbitrary<Draft> {
  const parameters = operation.spec.parameters ?? [];
  const byPlace = (place: OpenApiParameter['in']) => parameters.filter((p) => p.in === place);
  const options = (place: string): ArbitraryOptions => ({ resolve: context.resolve, hint: idHint(operation, place), maxDepth: 5 });
  const params = (place: 'path' | 'query' | 'header') => parameterRecord(byPlace(place), options(place), place);
  const media = Object.entries(operation.spec.requestBody?.content ?? {});
  const bodyRequired = operation.spec.requestBody?.required === true;
  const bodies = media.map(([mediaType, { schema }]) => bodyArbitrary(mediaType, schema, options('body'), context));
  const body: fc.Arbitrary<Draft['body'] | typeof NO_BODY> =
    bodies.length === 0
      ? fc.constant(NO_BODY)
      : bodyRequired
        ? fc.oneof(...bodies)
        : fc.oneof({ arbitrary: fc.oneof(...bodies), weight: 4 }, { arbitrary: fc.constant(NO_BODY), weight: 1 });
  const credential = fc.oneof(...CREDENTIALS[operation.audience].map(([value, weight]) => ({ arbitrary: fc.constant(value), weight })));
  const valid = fc
    .record({
      path: params('path'),
      query: params('query'),
      headers: params('header'),
      body,
      credential,
      malformedCookie: fc.constantFrom(...MALFORMED_COOKIES),
    })
    .map(({ body: b, ...rest }) => ({ ...rest, operation, aim: 'valid' as const, body: b === NO_BODY ? undefined : b }));

  const breakers: fc.Arbitrary<(draft: Draft) => Draft>[] = [];
  for (const place of ['path', 'query', 'header'] as const) {
    const key = place === 'header' ? 'headers' : place;
    for (const parameter of byPlace(place)) {
      const bad = safeInvalid(parameter.schema ?? {}, options(place), [parameter.name]);
      if (bad)
        breakers.push(
          bad
            .filter((v) => !(place === 'path' && !isPathSafe(wireText(v.value))))
            .map((v) => (d: Draft) => ({ ...d, [key]: { ...d[key], [parameter.name]: v.value }, note: `${place}.${v.note}` })),
        );
      if (parameter.required && place !== 'path') {
        breakers.push(
          fc.constant((d: Draft) => ({
            ...d,
            [key]: Object.fromEntries(Object.entries(d[key]).filter(([name]) => name !== parameter.name)),
            note: `${place}.${parameter.name}: required`,
          })),
        );
      }
    }
  }
  for (const [mediaType, { schema }] of media) {
    if (!isStructured(mediaType) || !schema) continue;
    const bad = safeInvalid(schema, options('body'), []);
    if (bad) breakers.push(bad.map((v) => (d: Draft) => ({ ...d, body: { mediaType, value: v.value }, note: `body.${v.note}` })));
  }
  if (bodyRequired) breakers.push(fc.constant((d: Draft) => ({ ...d, body: undefined, note: 'body: required' })));
  if (breakers.length === 0) return valid;
  const invalid = fc.tuple(valid, fc.oneof(...breakers)).map(([draft, breakIt]) => ({ ...breakIt(draft), aim: 'invalid' as const }));

  // Valid requests a little more often: they reach the code below validation.
  return fc.oneof({ arbitrary: valid, weight: 3 }, { arbitrary: invalid, weight: 2 });
}

/** An invalid-value arbitrary, or undefined when the schema refuses nothing or cannot be read. */
function safeInvalid(schema: JsonSchema, options: ArbitraryOptions, path: SchemaPath): fc.Arbitrary<Violation> | undefined {
  try {
    return invalidValue(schema, options, path);
  } catch (error) {
    if (error instanceof DanglingRefError) return undefined;
    throw error;
  }
}

function safeValid(schema: JsonSchema, options: ArbitraryOptions, path: SchemaPath): fc.Arbitrary<unknown> {
  try {
    return validValue(schema, options, path);
  } catch (error) {
    // Nothing can be known of a schema behind a dangling $ref: send something; the validator says "unknown".
    if (error instanceof DanglingRefError) return fc.jsonValue({ maxDepth: 2 });
    throw error;
  }
}

function parameterRecord(parameters: OpenApiParameter[], options: ArbitraryOptions, place: string): fc.Arbitrary<Record<string, unknown>> {
  const model = Object.fromEntries(
    parameters.map((p) => {
      const value = safeValid(p.schema ?? {}, options, [p.name]);

      return [p.name, place === 'path' ? value.filter((v) => isPathSafe(wireText(v))) : value];
    }),
  );

  const required = new Set(parameters.filter((p) => p.required || p.in === 'path').map((p) => p.name));
  const freeText = new Set(parameters.filter((p) => isFreeText(p.schema ?? {}, options.resolve)).map((p) => p.name));
  // Optional parameters: in one request in three every one is sent (combinations of them are where defects
  // hide), otherwise each two times in three. Free text is sent one time in four: a random value of a
  // language (search, select, sort) is refused before the rest of the request is looked at.
  const entries = (all: boolean) =>
    Object.entries(model).map(([name, value]) => {
      const pair = value.map((v) => [name, v] as const);
      if (required.has(name) || (all && !freeText.has(name))) return pair;

      return fc.oneof(
        { arbitrary: pair, weight: freeText.has(name) ? 1 : 2 },
        { arbitrary: fc.constant(undefined), weight: freeText.has(name) ? 3 : 1 },
      );
    });
  const record = (all: boolean) => fc.tuple(...entries(all)).map((pairs) => Object.fromEntries(pairs.filter((pair) => pair !== undefined)));

  return fc.oneof({ arbitrary: record(false), weight: 2 }, { arbitrary: record(true), weight: 1 });
}

/** A string the schema says nothing more of (no enum, format or pattern), nor gives an example of. */
function isFreeText(schema: JsonSchema, resolve: RefResolver): boolean {
  try {
    const flat = flatten(schema, resolve);
    const branches = flat.anyOf ?? flat.oneOf;
    if (branches) return branches.every((branch) => isFreeText(branch, resolve));
    const type = flat.type === 'array' && flat.items ? flatten(flat.items, resolve) : flat;

    return (
      type.type === 'string' && !type.enum && !type.format && !type.pattern && type.example === undefined && flat.example === undefined
    );
  } catch {
    return false;
  }
}

const isJson = (mediaType: string) => /^application\/([\w.-]+\+)?json$/.test(mediaType);
const isStructured = (mediaType: string) =>
  isJson(mediaType) || mediaType === 'application/x-www-form-urlencoded' || mediaType === 'multipart/form-data';

function bodyArbitrary(
  mediaType: string,
  schema: JsonSchema | undefined,
  options: ArbitraryOptions,
  context: RequestContext,
): fc.Arbitrary<Draft['body']> {
  if (isStructured(mediaType) && schema) return safeValid(schema, options, []).map((value) => ({ mediaType, value }));

  return context.bytes.map((value) => ({ mediaType, value }));
}

/**
 * Real ids where the schema takes an id: a uuid anywhere, an integer named `id`, `…Id`, `…Ids`; of the
 * kind the route declares there (`x-resource-ids`) when it does.
 */
function idHint(operation: Operation, place: string): Hint {
  const declared = operation.spec['x-resource-ids'] ?? {};

  return (schema, path) => {
    const name = [...path].reverse().find((segment) => segment !== '[]') ?? '';
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    const type =
      types.includes('string') && schema.format === 'uuid'
        ? 'uuid'
        : types.includes('integer') && (name === 'id' || /Ids?$/.test(name))
          ? 'integer'
          : undefined;
    if (!type) return undefined;
    const where = `${place}.${path.join('.').replace(/\.\[\]/g, '[]')}`;
    const kind = declared[where] ?? (name === 'customerId' ? 'customer' : undefined);

    const mode = fc.oneof(
      { arbitrary: fc.constant('own' as const), weight: 6 },
      { arbitrary: fc.constant('foreign' as const), weight: 1 },
      { arbitrary: fc.constant('missing' as const), weight: 1 },
    );
    const arbitrary = fc.tuple(fc.nat(), mode).map(([pick, chosen]) => new RealId(type, kind, pick, chosen));

    // The tenant selector names a real tenant mostly: anything else is refused before the operation runs.
    return { arbitrary, weight: kind === 'customer' ? 8 : 3 };
  };
}

/** Ids of a tenant by kind (the module sweep factories' kinds, plus `customer` and `user`). */
export type IdPool = Record<string, string[]>;

/** Replaces every `RealId` in a value with an id of the pool (the foreign pool for foreign ones). */
export function fillIds(value: unknown, own: IdPool, foreign: IdPool): unknown {
  if (value instanceof RealId) {
    const pool = value.mode === 'foreign' ? foreign : own;
    const candidates = (value.kind && pool[value.kind]?.length ? pool[value.kind]! : Object.values(pool).flat()).filter(
      (id) => (value.type === 'integer') === /^\d+$/.test(id),
    );
    if (value.mode === 'missing' || candidates.length === 0) return missingId(value);
    const id = candidates[value.pick % candidates.length]!;

    return value.type === 'integer' ? Number(id) : id;
  }
  if (Array.isArray(value)) return value.map((item) => fillIds(item, own, foreign));
  if (value !== null && typeof value === 'object' && !(value instanceof Uint8Array)) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fillIds(item, own, foreign)]));
  }

  return value;
}

/**
 * An accepted request with one input of a fresh one: a query, header or path parameter, or a top-level body
 * property, taken over (or left out when the fresh request has none).
 */
export function recombine(base: Draft, fresh: Draft, pick: number): Draft {
  const slots: ['query' | 'headers' | 'body', string][] = [];
  for (const place of ['query', 'headers'] as const) {
    for (const name of new Set([...Object.keys(base[place]), ...Object.keys(fresh[place])])) slots.push([place, name]);
  }
  const baseBody = base.body?.value;
  const freshBody = fresh.body?.mediaType === base.body?.mediaType ? fresh.body?.value : undefined;
  const isRecord = (value: unknown): value is Record<string, unknown> =>
    value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Uint8Array);
  if (isRecord(baseBody) && isRecord(freshBody))
    for (const name of new Set([...Object.keys(baseBody), ...Object.keys(freshBody)])) slots.push(['body', name]);
  if (slots.length === 0) return fresh;
  const [place, name] = slots[pick % slots.length]!;
  const take = (from: Record<string, unknown>, into: Record<string, unknown>) => {
    const { [name]: _dropped, ...rest } = into;

    return name in from ? { ...rest, [name]: from[name] } : rest;
  };
  if (place === 'body')
    return {
      ...base,
      aim: 'valid',
      body: { mediaType: base.body!.mediaType, value: take(freshBody as Record<string, unknown>, baseBody as Record<string, unknown>) },
    };

  return { ...base, aim: 'valid', [place]: take(fresh[place], base[place]) };
}

/** An id no seeded resource has: a high sequence number, or a version 4 uuid spelled from the pick. */
function missingId(value: RealId): number | string {
  if (value.type === 'integer') return 1_000_000_000 + (value.pick % 1_000_000_000);
  const hex = value.pick.toString(16).padStart(12, '0').slice(-12);

  return `00000000-0000-4000-8000-${hex}`;
}

/** A parameter value as text on the wire (OpenAPI `form`/`simple` styles; objects as JSON). */
function wireText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);

  return String(value);
}

/** A path value that stays one segment of this path: not empty, not `.` or `..` (URLs normalise them away). */
const isPathSafe = (text: string) => text !== '' && text !== '.' && text !== '..';

/** A request as it goes on the wire. */
export type WireRequest = {
  method: string;
  /** Path and query string. */
  url: string;
  headers: Record<string, string>;
  body?:
    | { mediaType: string; kind: 'json'; text: string }
    | { mediaType: string; kind: 'form'; fields: [string, string][] }
    | { mediaType: string; kind: 'multipart'; fields: [string, string, 'file' | 'text'][] }
    | { mediaType: string; kind: 'bytes'; bytes: Uint8Array };
};

/** Header values must be bytes 0x20–0x7E here (what `Headers` accepts of what we generate). */
const headerSafe = (text: string) => text.replace(/[^\x20-\x7e]/g, '');

/** The wire form of a filled-in draft (credential headers are the runner's), and the validator's verdict on it. */
export function toWire(draft: Draft, validator: SchemaValidator): { request: WireRequest; verdict: Verdict } {
  const { operation } = draft;
  const parameters = operation.spec.parameters ?? [];
  const verdicts: Verdict[] = [];
  const judgeParameter = (p: OpenApiParameter, raw: string[] | undefined) => {
    if (raw === undefined) {
      if (p.required) verdicts.push({ valid: false, path: `${p.in}.${p.name}`, keyword: 'required', message: 'missing' });

      return;
    }
    const verdict = validator.validateWire(p.schema ?? {}, raw);
    verdicts.push(verdict.valid === false ? { ...verdict, path: `${p.in}.${p.name}${verdict.path}` } : verdict);
  };
  const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(wireText(draft.path[name])));
  const query = new URLSearchParams();
  const headers: Record<string, string> = {};
  for (const p of parameters) {
    if (p.in === 'path') judgeParameter(p, [wireText(draft.path[p.name])]);
    if (p.in === 'query') {
      const value = draft.query[p.name];
      const raw = value === undefined ? undefined : Array.isArray(value) ? value.map(wireText) : [wireText(value)];
      raw?.forEach((text) => query.append(p.name, text));
      judgeParameter(p, raw);
    }
    if (p.in === 'header') {
      const value = draft.headers[p.name];
      const text = value === undefined ? undefined : headerSafe(wireText(value)).trim();
      if (text !== undefined) headers[p.name] = text;
      judgeParameter(p, text === undefined ? undefined : [text]);
    }
  }
  const search = query.toString();
  const request: WireRequest = { method: operation.method, url: search ? `${path}?${search}` : path, headers };
  if (draft.body) {
    const { body, verdict } = wireBody(operation, draft.body, validator);
    request.body = body;
    verdicts.push(verdict);
  } else if (operation.spec.requestBody?.required) {
    verdicts.push({ valid: false, path: 'body', keyword: 'required', message: 'missing' });
  }
  const invalid = verdicts.find((v) => v.valid === false);
  const unknown = verdicts.find((v) => v.valid === 'unknown');

  return { request, verdict: invalid ?? unknown ?? { valid: true } };
}

function wireBody(
  operation: Operation,
  body: NonNullable<Draft['body']>,
  validator: SchemaValidator,
): { body: NonNullable<WireRequest['body']>; verdict: Verdict } {
  const { value } = body;
  const schema = operation.spec.requestBody?.content?.[body.mediaType]?.schema;
  // A declared range (`image/*`) is sent as one type of it.
  const mediaType = body.mediaType.replace('/*', '/png');
  if (value instanceof Uint8Array)
    return { body: { mediaType, kind: 'bytes', bytes: value }, verdict: { valid: 'unknown', reason: 'binary body' } };
  if (isJson(mediaType)) {
    const text = JSON.stringify(value) ?? 'null';
    const verdict = schema ? validator.validate(schema, JSON.parse(text)) : { valid: true as const };

    return { body: { mediaType, kind: 'json', text }, verdict: bodyVerdict(verdict) };
  }
  // Forms: every field is text, judged like a parameter against its property's schema.
  const record = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  const flat = schema ? safeFlatten(schema, validator) : undefined;
  const multipart = mediaType.startsWith('multipart/');
  const fields: [string, string, 'file' | 'text'][] = [];
  for (const [name, item] of Object.entries(record)) {
    for (const one of Array.isArray(item) ? item : [item]) {
      const property = flat?.properties?.[name];
      const isFile = multipart && isBinary(property, validator);
      fields.push([name, wireText(one), isFile ? 'file' : 'text']);
    }
  }

  return {
    body: multipart
      ? { mediaType, kind: 'multipart', fields }
      : { mediaType, kind: 'form', fields: fields.map(([name, text]) => [name, text]) },
    verdict: bodyVerdict(formVerdict(flat, record, multipart, validator)),
  };
}

/** A form's verdict: each field's text judged like a parameter against its property's schema. */
function formVerdict(
  flat: JsonSchema | undefined,
  record: Record<string, unknown>,
  multipart: boolean,
  validator: SchemaValidator,
): Verdict {
  if (!flat) return { valid: 'unknown', reason: 'schema unreadable' };
  const missing = (flat.required ?? []).find((name) => !(name in record));
  if (missing) return { valid: false, path: `/${missing}`, keyword: 'required', message: 'missing' };
  let unknown: Verdict | undefined;
  for (const [name, item] of Object.entries(record)) {
    const property = flat.properties?.[name];
    if (!property) {
      if (flat.additionalProperties === false)
        return { valid: false, path: `/${name}`, keyword: 'additionalProperties', message: 'not allowed' };
      continue;
    }
    // A file's bytes are not described by a schema (`format: binary`): what the server makes of them is not judged.
    if (multipart && isBinary(property, validator)) {
      unknown = { valid: 'unknown', reason: 'file content' };
      continue;
    }
    const verdict = validator.validateWire(property, (Array.isArray(item) ? item : [item]).map(wireText));
    if (verdict.valid === false) return { ...verdict, path: `/${name}${verdict.path}` };
    if (verdict.valid === 'unknown') unknown = verdict;
  }

  return unknown ?? { valid: true };
}
const bodyVerdict = (verdict: Verdict): Verdict => (verdict.valid === false ? { ...verdict, path: `body${verdict.path}` } : verdict);

function safeFlatten(schema: JsonSchema, validator: SchemaValidator): JsonSchema | undefined {
  try {
    return flatten(schema, validator.resolve);
  } catch {
    return undefined;
  }
}

function isBinary(property: JsonSchema | undefined, validator: SchemaValidator): boolean {
  if (!property) return false;
  const flat = safeFlatten(property, validator);

  return flat?.format === 'binary' || (flat?.type === 'array' && safeFlatten(flat.items ?? {}, validator)?.format === 'binary');
}

/** The operation a concrete method and path reach, as the app's router orders routes (static segments first). */
export function routeOf(operations: Operation[], method: string, url: string): Operation | undefined {
  const segments = url.split('?')[0]!.split('/').filter(Boolean);
  const candidates = operations.filter((op) => {
    if (op.method !== method) return false;
    const template = op.path.split('/').filter(Boolean);

    return (
      template.length === segments.length && template.every((part, i) => part.startsWith('{') || part === decodeURIComponent(segments[i]!))
    );
  });
  candidates.sort((a, b) => {
    const x = a.path.split('/').filter(Boolean);
    const y = b.path.split('/').filter(Boolean);
    for (let i = 0; i < x.length; i++) {
      const xParam = x[i]!.startsWith('{');
      const yParam = y[i]!.startsWith('{');
      if (xParam !== yParam) return xParam ? 1 : -1;
    }

    return 0;
  });

  return candidates[0];
}
