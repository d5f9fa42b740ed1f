import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertFile, rootFolderOf } from '@/server/modules/files/files.test-kit';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { configLimitNames } from '@/server/modules/resource-limits/resource-limits.schemas';
import { SUPPORTED_FILE_NAME_PATTERN } from '@/server/modules/uploads/uploads.schemas';
import { MAX_PAGE } from './query-params.schemas';
import { TIME_ZONE_NAMES } from './time-zones.schemas';
import { HTTP_URL_PATTERN, MAX_INT32, NON_BLANK_PATTERN } from './wire.schemas';

/*
 * The rules the server enforces are stated in /api/openapi.json by the same schemas that enforce them (issue 27
 * §3.3): for each shared piece, what the document says and what a request gets. wire.schemas.unit.test.ts holds
 * the value-level cases.
 */

type Schema = {
  $ref?: string;
  minLength?: number;
  maxLength?: number;
  type?: string | string[];
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  enum?: unknown[];
  additionalProperties?: unknown;
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
};
type Parameter = { name: string; in: string; required?: boolean; schema: Schema };
type Operation = {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
};
type Document = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };

let t: TestContext;
let doc: Document;
let owner: string;
let admin: string;
let customerId: number;

beforeAll(async () => {
  t = await createTestContext();
  doc = (await t.request('GET', '/api/openapi.json')).body as Document;
  customerId = (await t.factories.customer({ name: 'Wire rules' })).id;
  owner = (await t.actor('OWNER', { customerId })).token;
  admin = (await t.actor('ADMIN')).token;
});
afterAll(() => t.close());

const operation = (id: string) =>
  Object.values(doc.paths)
    .flatMap((item) => Object.values(item))
    .find((op) => op.operationId === id)!;
const parameter = (id: string, name: string) => operation(id).parameters!.find((p) => p.name === name)!.schema;
const component = (name: string) => doc.components.schemas[name]!;
const resolve = (schema: Schema): Schema => (schema.$ref ? resolve(component(schema.$ref.split('/').pop()!)) : schema);
/** The non-null variant of an attribute that also takes null. */
const nonNull = (schema: Schema) => resolve(schema.anyOf?.find((v) => v.type !== 'null') ?? schema);
const INT64_ID = { type: 'integer', format: 'int64', minimum: 1 };

describe('integer ids', () => {
  it('are int64 from 1 in a path, and a path value that is not one is a 400', async () => {
    expect(parameter('getCampaign', 'id')).toMatchObject(INT64_ID);
    expect(parameter('getMessageGroup', 'id')).toMatchObject(INT64_ID);
    for (const path of ['/api/v2/campaign/0', '/api/messageGroup/abc', '/api/v2/userInterfaceProfile/-3']) {
      const res = await t.request('GET', path, { token: owner });
      expect(res.status, path).toBe(400);
      expect(res.body.key).toBe('request.error.invalid');
    }
  });

  it('are int64 from 1 in bodies and answers', () => {
    expect(nonNull(component('MessageCreate').properties!.messageGroupId!)).toMatchObject(INT64_ID);
    expect(resolve(component('Campaign').properties!.id!)).toMatchObject(INT64_ID);
    expect(resolve(component('TokenResponse').properties!.customer_id!)).toMatchObject(INT64_ID);
  });

  it('every integer named like an id, anywhere in the document, is int64 from 1', () => {
    const offenders: string[] = [];
    const idLike = (name: string) => /^(id|ids)$|Ids?$|_id$/.test(name);
    const seen = new Set<Schema>();
    const walk = (schema: Schema | undefined, where: string, name?: string) => {
      if (!schema || typeof schema !== 'object' || seen.has(schema)) return;
      seen.add(schema);
      const types = Array.isArray(schema.type) ? schema.type : [schema.type];
      // An enum of special values (the tenant selector's -1) is no id.
      if (name && idLike(name) && types.includes('integer') && !schema.enum && !(schema.format === 'int64' && (schema.minimum ?? 0) >= 1))
        offenders.push(`${where} ${JSON.stringify(schema)}`);
      for (const variant of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) walk(variant, where, name);
      for (const [key, property] of Object.entries(schema.properties ?? {})) walk(property, `${where}.${key}`, key);
      walk(schema.items, `${where}[]`, name);
      if (typeof schema.additionalProperties === 'object') walk(schema.additionalProperties as Schema, `${where}{}`, name);
    };
    for (const [name, schema] of Object.entries(doc.components.schemas)) walk(schema, name);
    for (const op of Object.values(doc.paths).flatMap((item) => Object.values(item))) {
      for (const p of op.parameters ?? []) walk(p.schema, `${op.operationId} ${p.in}.${p.name}`, p.name);
      for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) walk(media.schema, `${op.operationId} body ${type}`);
      for (const [status, answer] of Object.entries(op.responses))
        for (const media of Object.values(answer.content ?? {})) walk(media.schema, `${op.operationId} ${status}`);
    }
    expect(offenders).toEqual([]);
  });
});

describe('the tenant selector', () => {
  it('is a customer id, -1 or null; anything else is a 400', async () => {
    const selector = parameter('listFiles', 'customerId');
    expect(selector.anyOf).toEqual([
      expect.objectContaining(INT64_ID),
      { type: 'integer', enum: [-1] },
      { type: 'string', enum: ['null'] },
    ]);
    expect((await t.request('GET', '/api/v2/file?customerId=0', { token: owner })).status).toBe(400);
    expect((await t.request('GET', '/api/v2/file?customerId=abc', { token: owner })).status).toBe(400);
    expect((await t.request('GET', `/api/v2/file?customerId=${customerId}`, { token: owner })).status).toBe(200);
    expect((await t.request('GET', '/api/v2/device?customerId=null', { token: admin })).status).toBe(200);
  });
});

describe('epoch milliseconds', () => {
  it('are int64 from 0 in a query and in bodies; a negative one is a 400', async () => {
    expect(parameter('setFileValidity', 'validFrom')).toMatchObject({ type: 'integer', format: 'int64', minimum: 0 });
    expect(resolve(component('UploadInit').properties!.validFrom!)).toMatchObject({ type: 'integer', format: 'int64', minimum: 0 });
    const res = await t.request('POST', `/api/v2/file/validity/set?customerId=${customerId}&validFrom=-1`, { token: owner });
    expect(res.status).toBe(400);
  });
});

describe('bounded and enumerated query values', () => {
  it('expiresIn is 60 to 604800 seconds', async () => {
    expect(parameter('getFileSignedUrl', 'expiresIn')).toMatchObject({ type: 'integer', minimum: 60, maximum: 604_800 });
    const file = await insertFile(t.db, await rootFolderOf(t.db, customerId), { name: 'wire.png' });
    expect((await t.request('GET', `/api/v2/file/${file.id}/signedUrl?expiresIn=59`, { token: owner })).status).toBe(400);
    expect((await t.request('GET', `/api/v2/file/${file.id}/signedUrl?expiresIn=60`, { token: owner })).status).toBe(200);
  });

  it('a rotation is one of 0, 90, 180 and 270 degrees', async () => {
    expect(parameter('rotationDevices', 'angle')).toMatchObject({ type: 'integer', enum: [0, 90, 180, 270] });
    const res = await t.request('POST', `/api/v2/device/rotation?customerId=${customerId}&angle=45&type=DEVICE`, { token: owner });
    expect(res.status).toBe(400);
  });
});

describe('formats and patterns', () => {
  it('a user e-mail is format email with the pattern the server applies', async () => {
    expect(resolve(component('UserCreate').properties!.email!)).toMatchObject({
      type: 'string',
      format: 'email',
      pattern: expect.any(String),
      maxLength: 254,
    });
    const res = await t.request('POST', `/api/user?customerId=${customerId}`, {
      token: owner,
      json: { email: 'not an address', name: 'X', role: 'VIEWER', password: 'long enough 1' },
    });
    expect(res.status).toBe(400);
  });

  it('a date-only field is format date, and a date that does not exist is a 400', async () => {
    const validFrom = nonNull(component('CampaignCreate').properties!.validFrom!);
    expect(validFrom).toMatchObject({ type: 'string', format: 'date', pattern: expect.any(String) });
    expect(new RegExp(validFrom.pattern!).test('2026-02-31')).toBe(false);
    const res = await t.request('POST', `/api/campaign?customerId=${customerId}`, {
      token: owner,
      json: {
        name: 'Wire',
        level: 'WIDGET',
        type: 'CONTENT_QUICK_FILTER',
        version: '2.0',
        validFrom: '2026-02-31',
        contentShuffleMode: 'SERIAL',
        orderingMode: 'DEFAULT',
      },
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body.details.issues)).toContain('validFrom');
  });

  it('a tag follows the tag syntax', async () => {
    const tag = resolve(component('TagCreate').properties!.tag!);
    expect(tag.pattern).toBeDefined();
    expect(new RegExp(tag.pattern!, 'u').test('-bad')).toBe(false);
    expect(
      (await t.request('POST', `/api/tag?customerId=${customerId}&tagType=FILE`, { token: owner, json: { tag: 'two words' } })).status,
    ).toBe(400);
  });

  it('sort is a pattern; search and select are described strings with an example', () => {
    const sort = parameter('listCampaigns', 'sort');
    const value = sort.anyOf!.find((v) => v.type === 'string')!;
    expect(new RegExp(value.pattern!).test('name,desc')).toBe(true);
    expect(new RegExp(value.pattern!).test('name,up')).toBe(false);
    for (const name of ['search', 'select'])
      expect(operation('listCampaigns').parameters!.find((p) => p.name === name)!.schema).toMatchObject({
        type: 'string',
        description: expect.any(String),
        example: expect.any(String),
      });
  });
});

describe('update bodies', () => {
  it('declare null for every attribute (null keeps the value)', () => {
    for (const name of ['CustomerUpdate', 'UserUpdate', 'CampaignUpdate', 'TeamUpdate', 'FileUpdate']) {
      for (const [key, property] of Object.entries(component(name).properties!)) {
        expect(
          property.anyOf?.some((v) => v.type === 'null') || (Array.isArray(property.type) && property.type.includes('null')),
          `${name}.${key}`,
        ).toBe(true);
      }
    }
  });

  it('and a named schema used there stays non-null where it is used alone', () => {
    const nullable = Object.entries(doc.components.schemas).filter(
      ([, schema]) => (Array.isArray(schema.type) && schema.type.includes('null')) || schema.anyOf?.some((v) => v.type === 'null'),
    );
    expect(nullable.map(([name]) => name)).toEqual([]);
  });
});

describe('closed objects', () => {
  it('are closed in the document where the server refuses unknown keys', async () => {
    expect(resolve(component('WorkingHoursBody').properties!.days!).additionalProperties).toBe(false);
    expect(component('FileQuickFilterCriteria').additionalProperties).toBe(false);
    const res = await t.request('POST', `/api/v2/device/workingHours?customerId=${customerId}`, {
      token: owner,
      json: { mode: 'SCREEN', days: { MONDAY: { from: '08:00', to: '18:00' } } },
    });
    expect(res.status).toBe(400);
  });

  it('elsewhere request bodies take unknown attributes and ignore them', async () => {
    expect(component('TeamBody').additionalProperties).toBeUndefined();
    const res = await t.request('POST', `/api/team?customerId=${customerId}`, {
      token: owner,
      json: { name: 'Open body', unknownAttribute: 1 },
    });
    expect(res.status).toBe(201);
    expect(res.body).not.toHaveProperty('unknownAttribute');
  });
});

describe('single-value rules the server checks, stated by the document (the contract fuzz found each)', () => {
  const viaRef = (schema: Schema) => schema.$ref ?? schema.allOf?.find((v) => v.$ref)?.$ref ?? schema.anyOf?.find((v) => v.$ref)?.$ref;

  it('time zones: one TimeZone component lists the names, every zone refers to it, and a name it does not list is a 400', async () => {
    expect(component('TimeZone')).toMatchObject({ type: 'string', enum: [...TIME_ZONE_NAMES] });
    expect(viaRef(parameter('timeDevices', 'timeZone'))).toBe('#/components/schemas/TimeZone');
    expect(viaRef(parameter('proofOfDisplayAllDevice', 'timeZone'))).toBe('#/components/schemas/TimeZone');
    for (const [name, key] of [
      ['DeviceUpdate', 'timeZone'],
      ['DisplayRegistration', 'timeZone'],
      ['DeviceAssignToCustomer', 'timeZone'],
      ['CampaignHours', 'timeZone'],
      ['AdvertiserValidityInput', 'timeZone'],
    ] as const) {
      expect(viaRef(component(name).properties![key]!), name).toBe('#/components/schemas/TimeZone');
    }
    const res = await t.request('POST', `/api/v2/device/time?customerId=${customerId}&timeZone=europe%2Fberlin`, { token: owner });
    expect(res.body).toMatchObject({ status: 400, key: 'request.error.invalid' });
  });

  it('names say they need a character that is no space, and a name of spaces is a 400', async () => {
    expect(resolve(component('DeviceGroupCreate').properties!.name!)).toMatchObject({
      pattern: NON_BLANK_PATTERN,
      minLength: 1,
      maxLength: 255,
    });
    expect(parameter('renameFileFolder', 'newName')).toMatchObject({ pattern: NON_BLANK_PATTERN });
    const res = await t.request('POST', `/api/team?customerId=${customerId}`, { token: owner, json: { name: ' \t ' } });
    expect(res.body).toMatchObject({ status: 400, key: 'request.error.invalid' });
  });

  it('paging states the last page', () => {
    expect(parameter('listCampaigns', 'page')).toMatchObject({ type: 'integer', minimum: 0, maximum: MAX_PAGE });
    expect(parameter('listAuditLog', 'page')).toMatchObject({ maximum: MAX_PAGE });
  });

  it('resource-limit names are an enum, each with the value pattern of its maximum; reset keys a pattern of them', () => {
    const branches = resolve(component('ConfigBatch').properties!.configUpdates!).items!.anyOf!;
    expect(branches.flatMap((b) => b.properties!.name!.enum as string[]).sort()).toEqual([...configLimitNames].sort());
    for (const branch of branches) expect(branch.properties!.value!.pattern).toMatch(/^\^/);
    expect(new RegExp(parameter('resetServerLimits', 'keys').pattern!).test('config.limit.USER.BUSINESS, config.limit.TEAM.STARTER')).toBe(
      true,
    );
  });

  it('an upload name states its supported extensions; suggestTags its entities; team assignments uuids; customer counts the int4 maximum', () => {
    expect(resolve(component('UploadInit').properties!.name!).pattern).toBe(SUPPORTED_FILE_NAME_PATTERN);
    expect(parameter('suggestTags', 'entity').enum).toEqual([
      'DEVICE',
      'CONTENT',
      'CAMPAIGN',
      'MESSAGE',
      'FILE',
      'DATASOURCE',
      'deviceTags',
      'deviceContentTags',
      'campaignTags',
      'messageTags',
      'fileTags',
      'datasourceTags',
    ]);
    const modification = component('TeamModification').properties!;
    expect(nonNull(modification.assignToTeams!).items!.properties!.teamId).toMatchObject({
      format: 'uuid',
      pattern: expect.stringContaining('[1-8]'),
    });
    expect(nonNull(component('CustomerCreate').properties!.freeLicenses!)).toMatchObject({ maximum: MAX_INT32 });
  });

  it('a web-page widget states its address pattern; a report its sort fields and directions', () => {
    const page = component('SlidePage').properties!.widgets!.items!.oneOf!.find((w) =>
      JSON.stringify(w.properties!.type).includes('webPage'),
    )!;
    expect(page.properties!.url).toMatchObject({ pattern: new RegExp(HTTP_URL_PATTERN).source, maxLength: 2048 });
    const sort = parameter('proofOfDisplayCampaignCsv', 'sort').anyOf![0]!;
    expect(new RegExp(sort.pattern!).test('name,desc')).toBe(true);
    expect(new RegExp(sort.pattern!).test('name,up')).toBe(false);
  });
});
