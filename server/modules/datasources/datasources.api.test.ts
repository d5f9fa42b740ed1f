import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '@/server/modules/audit-log/audit-log.table';
import { devices } from '@/server/modules/devices/devices.table';
import { contentGroups } from '@/server/modules/folders/folders.table';
import { newDevice } from '@/server/modules/display/display.test-kit';
import { insertFile, rootFolderOf } from '@/server/modules/files/files.test-kit';
import { createLogger } from '@/server/logger';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { createRefresher, DEACTIVATE_AFTER_ERRORS, REFRESH_LEASE_MS } from './datasource-refresh';
import { claimDueDatasources } from './datasources.queries';
import { datasourceOutbound } from './datasource-refresh.service';
import { datasources } from './datasources.table';
import { rssFeed, startRemote } from './datasources.test-kit';

let t: TestContext;
let remote: Awaited<ReturnType<typeof startRemote>>;
let customerId: number;
let otherCustomerId: number;
let editor: string;
let viewer: string;
let otherEditor: string;

beforeAll(async () => {
  t = await createTestContext({ ALLOW_PRIVATE_NETWORK_FETCH: 'true' });
  remote = await startRemote();
  customerId = (await t.factories.customer()).id;
  otherCustomerId = (await t.factories.customer()).id;
  editor = (await t.actor('EDITOR', { customerId })).token;
  viewer = (await t.actor('VIEWER', { customerId })).token;
  otherEditor = (await t.actor('EDITOR', { customerId: otherCustomerId })).token;
});
afterAll(async () => {
  await remote.close();
  await t.close();
});

const create = (body: unknown, token = editor) => t.request('POST', '/api/datasource', { token, json: body });
const internal = (name: string, structureType = 'KEY_VALUE', extra: Record<string, unknown> = {}) => ({
  name,
  sourceType: 'INTERNAL',
  structureType,
  ...extra,
});
async function created(body: unknown, token = editor): Promise<{ id: string; name: string }> {
  const res = await create(body, token);
  expect(res.status, JSON.stringify(res.body)).toBe(201);

  return res.body as { id: string; name: string };
}

async function contentRoot(customer: number) {
  const [root] = await t.db
    .select()
    .from(contentGroups)
    .where(and(eq(contentGroups.customerId, customer), isNull(contentGroups.parentId)))
    .limit(1);

  return root!;
}

/** A one-page slide whose widget shows the datasource. */
const slideShowing = (datasourceId: string, widgetId = 'price') => ({
  Default: {
    tags: [],
    pageStyle: {},
    pageData: { screenSize: { width: 1920, height: 1080 } },
    widgets: [
      {
        id: widgetId,
        name: 'Price',
        type: 'datasource',
        x: 0,
        y: 0,
        width: 400,
        height: 100,
        zIndex: 1,
        mode: 'text',
        datasourceId,
        field: 'price',
      },
    ],
  },
});

describe('datasources: create, read, list, update, delete (spec 3 "Datasources")', () => {
  it('keeps an internal datasource with its settings, lists it with search, sort and paging, and audits every write', async () => {
    const a = await created(internal('Menu prices', 'TABLE', { comment: 'Lunch board' }));
    expect(a).toMatchObject({
      name: 'Menu prices',
      sourceType: 'INTERNAL',
      structureType: 'TABLE',
      comment: 'Lunch board',
      errorCounter: 0,
      readOnly: false,
    });
    await created(internal('Room status'));
    const page = await t.request('GET', '/api/v2/datasource?size=1&page=0&sort=name,desc', { token: viewer });
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ totalElements: 2, content: [{ name: 'Room status' }] });
    const found = await t.request('GET', `/api/v2/datasource?search=${encodeURIComponent('name~menu')}`, { token: viewer });
    expect(found.body.content.map((d: { id: string }) => d.id)).toEqual([a.id]);
    expect((await t.request('GET', `/api/v2/datasource/${a.id}?select=name`, { token: viewer })).body).toEqual({
      id: a.id,
      name: 'Menu prices',
    });

    const put = await t.request('PUT', `/api/datasource/${a.id}`, { token: editor, json: { name: 'Menu', comment: null } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toMatchObject({ name: 'Menu', comment: 'Lunch board' });
    const taken = await t.request('PUT', `/api/datasource/${a.id}`, { token: editor, json: { name: 'Room status' } });
    expect(taken.status).toBe(409);
    expect(taken.body.errorKey ?? taken.body.key).toBeDefined();
    expect((await create(internal('Menu'))).status).toBe(409);

    expect((await t.request('DELETE', `/api/datasource/${a.id}`, { token: editor })).status).toBe(204);
    expect((await t.request('GET', `/api/v2/datasource/${a.id}`, { token: viewer })).status).toBe(404);
    const entries = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'datasource'), eq(auditLog.entityId, a.id)));
    expect(entries.map((e) => e.action).sort()).toEqual(['create', 'delete', 'update']);
  });

  it('refuses what does not fit the kind: required fields per type, structures, unsupported types (named), other kinds’ fields', async () => {
    const noUrl = await create({ name: 'x1', sourceType: 'EXTERNAL', structureType: 'KEY_VALUE', type: 'JSON' });
    expect(noUrl.status).toBe(400);
    expect(JSON.stringify(noUrl.body)).toContain('remoteUrl');
    const weather = await create({
      name: 'x2',
      sourceType: 'EXTERNAL',
      structureType: 'KEY_VALUE',
      type: 'WEATHER',
      remoteUrl: 'https://example.com/w',
    });
    expect(weather.status).toBe(400);
    expect(JSON.stringify(weather.body)).toContain('datasource.error.unsupportedType');
    expect(JSON.stringify(weather.body)).toContain('WEATHER');
    const rssAsTable = await create({
      name: 'x3',
      sourceType: 'EXTERNAL',
      structureType: 'TABLE',
      type: 'RSS',
      remoteUrl: 'https://example.com/rss',
    });
    expect(rssAsTable.status).toBe(400);
    expect(JSON.stringify(rssAsTable.body)).toContain('FEED');
    const icalNoZone = await create({
      name: 'x4',
      sourceType: 'EXTERNAL',
      structureType: 'LIST',
      type: 'ICAL',
      remoteUrl: 'https://example.com/cal.ics',
    });
    expect(icalNoZone.status).toBe(400);
    const filesNoFilter = await create({ name: 'x5', sourceType: 'SYSTEM', structureType: 'LIST', systemDatasourceType: 'FILES' });
    expect(filesNoFilter.status).toBe(400);
    const internalWithUrl = await create(internal('x6', 'KEY_VALUE', { remoteUrl: 'https://example.com/' }));
    expect(internalWithUrl.status).toBe(400);
    const tooOften = await create({
      name: 'x7',
      sourceType: 'EXTERNAL',
      structureType: 'KEY_VALUE',
      type: 'JSON',
      remoteUrl: 'https://example.com/',
      refreshFrequency: 30,
    });
    expect(tooOften.status).toBe(400);
    const badCron = await create({
      name: 'x8',
      sourceType: 'EXTERNAL',
      structureType: 'KEY_VALUE',
      type: 'JSON',
      remoteUrl: 'https://example.com/',
      cronExpressionParameters: { cronExpression: 'every day', timeZone: 'Europe/Berlin' },
    });
    expect(badCron.status).toBe(400);
    expect(JSON.stringify(badCron.body)).toContain('datasource.error.invalidCron');
  });

  it('answers roles and tenants: a VIEWER reads but cannot write, another tenant sees nothing', async () => {
    const a = await created(internal('Tenant secret'));
    expect((await create(internal('Viewer made'), viewer)).status).toBe(403);
    for (const [method, path] of [
      ['GET', `/api/v2/datasource/${a.id}`],
      ['GET', `/api/datasource/${a.id}/data`],
      ['PUT', `/api/datasource/${a.id}`],
      ['PUT', `/api/datasource/${a.id}/data`],
      ['DELETE', `/api/datasource/${a.id}`],
      ['DELETE', `/api/datasource/${a.id}/clearCache`],
      ['POST', `/api/datasource/refresh/${a.id}`],
    ] as const) {
      const res = await t.request(method, path, { token: otherEditor, json: method === 'PUT' ? { name: 'taken over' } : undefined });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    const list = await t.request('GET', '/api/v2/datasource', { token: otherEditor });
    expect(list.body.content.map((d: { id: string }) => d.id)).not.toContain(a.id);
  });
});

describe('data documents (spec 5 §2 "Internal data")', () => {
  it('replaces, reads and refuses documents that do not fit the structure, external datasources and more than 1 MiB', async () => {
    const table = await created(internal('Drinks', 'TABLE'));
    expect((await t.request('GET', `/api/datasource/${table.id}/data`, { token: viewer })).body).toEqual({ columns: [], rows: [] });
    const doc = { columns: ['name', 'price'], rows: [{ name: 'Tea', price: 2.5 }] };
    const put = await t.request('PUT', `/api/datasource/${table.id}/data`, { token: editor, json: doc });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect((await t.request('GET', `/api/datasource/${table.id}/data?parseData=true`, { token: viewer })).body).toEqual(doc);
    const wrong = await t.request('PUT', `/api/datasource/${table.id}/data`, { token: editor, json: [1, 2, 3] });
    expect(wrong.status).toBe(400);
    expect(JSON.stringify(wrong.body)).toContain('datasource.error.invalidDocument');
    const big = await t.request('PUT', `/api/datasource/${table.id}/data`, {
      token: editor,
      json: { columns: ['x'], rows: [{ x: 'y'.repeat(1024 * 1024) }] },
    });
    expect(big.status).toBe(413);
    expect((await t.request('GET', `/api/datasource/${table.id}/data`, { token: viewer })).body).toEqual(doc);
    const lastUpdated = (await t.request('GET', `/api/v2/datasource/${table.id}`, { token: viewer })).body.lastUpdated;
    expect(lastUpdated).toEqual(expect.any(Number));
    expect((await t.request('GET', `/api/v2/datasource/${table.id}?select=dataSize`, { token: viewer })).body.dataSize).toBe(
      Buffer.byteLength(JSON.stringify(doc)),
    );
  });

  it('set and merge take a user (EDITOR), a device of the tenant, or nobody when the datasource is editable by displays', async () => {
    const open = await created(internal('Room 2', 'KEY_VALUE', { editableByDisplay: true }));
    const closed = await created(internal('Lobby'));
    const set = (id: string, key: string, value: string, token?: string) =>
      t.request('POST', `/api/display/datasource/${id}/set?key=${encodeURIComponent(key)}&value=${encodeURIComponent(value)}`, { token });

    const byUser = await set(closed.id, 'rooms.1.name', 'Board room', editor);
    expect(byUser.status, JSON.stringify(byUser.body)).toBe(200);
    expect(byUser.body).toEqual({ rooms: { 1: { name: 'Board room' } } });
    expect((await set(closed.id, 'occupied', 'true', viewer)).status).toBe(403);
    expect((await set(closed.id, 'occupied', 'true')).status).toBe(404);
    expect((await set(closed.id, 'occupied', 'true', otherEditor)).status).toBe(404);
    expect((await set(closed.id, 'occupied', 'true', 'not-a-token')).status).toBe(401);

    const device = await newDevice(t, { customerId });
    const byDevice = await set(closed.id, 'occupied', 'true', device.token);
    expect(byDevice.status, JSON.stringify(byDevice.body)).toBe(200);
    expect(byDevice.body).toMatchObject({ occupied: true });
    const foreignDevice = await newDevice(t, { customerId: otherCustomerId });
    expect((await set(closed.id, 'occupied', 'false', foreignDevice.token)).status).toBe(404);

    const anonymous = await set(open.id, 'status', 'free');
    expect(anonymous.status, JSON.stringify(anonymous.body)).toBe(200);
    const merged = await t.request('POST', `/api/display/datasource/${open.id}/merge`, {
      json: { status: null, next: { title: 'Stand-up' } },
    });
    expect(merged.status).toBe(200);
    expect(merged.body).toEqual({ next: { title: 'Stand-up' } });
    const viaPath = await set(open.id, '$.next.title', 'Retro');
    expect(viaPath.body).toEqual({ next: { title: 'Retro' } });
    const audit = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'datasource'), eq(auditLog.entityId, open.id)));
    expect(audit.length).toBeGreaterThanOrEqual(3);
  });
});

describe('system datasources (spec 5 §2: computed when read)', () => {
  it('FILES lists the files of a FILE quick filter (at most maxElementCount); DEVICES the tenant’s screens; the filter cannot go while used', async () => {
    const folder = await rootFolderOf(t.db, customerId);
    for (const name of ['menu-a.png', 'menu-b.png', 'other.png'])
      await insertFile(t.db, folder, { name, contentType: 'image/png', width: 800, height: 600 });
    const filter = await t.request('POST', '/api/quickFilter', {
      token: editor,
      json: { name: 'Menu images', filteredEntityType: 'FILE', criteria: { type: 'FILE', name: 'menu-' } },
    });
    expect(filter.status, JSON.stringify(filter.body)).toBe(201);
    const files = await created({
      name: 'Menu images',
      sourceType: 'SYSTEM',
      structureType: 'LIST',
      systemDatasourceType: 'FILES',
      quickFilterId: filter.body.id,
      maxElementCount: 1,
    });
    const document = (await t.request('GET', `/api/datasource/${files.id}/data`, { token: viewer })).body;
    expect(document).toEqual([
      {
        id: expect.any(String),
        name: 'menu-a.png',
        contentType: 'image/png',
        width: 800,
        height: 600,
        duration: null,
        url: expect.stringMatching(/^\/api\/storage\/customer\/\d+\/files\//),
      },
    ]);
    expect((await t.request('DELETE', `/api/quickFilter?quickFilterId=${filter.body.id}`, { token: editor })).status).toBe(409);
    const foreignFilter = await t.request('POST', '/api/quickFilter', {
      token: otherEditor,
      json: { name: 'Theirs', filteredEntityType: 'FILE', criteria: { type: 'FILE' } },
    });
    const foreign = await create({
      name: 'Borrowed',
      sourceType: 'SYSTEM',
      structureType: 'LIST',
      systemDatasourceType: 'FILES',
      quickFilterId: foreignFilter.body.id,
    });
    expect(foreign.status).toBe(404);

    await newDevice(t, { customerId });
    const screens = await created({ name: 'Screens', sourceType: 'SYSTEM', structureType: 'LIST', systemDatasourceType: 'DEVICES' });
    const listed = (await t.request('GET', `/api/datasource/${screens.id}/data`, { token: viewer })).body;
    expect(listed.length).toBeGreaterThanOrEqual(1);
    expect(listed[0]).toMatchObject({
      id: expect.any(String),
      name: expect.any(String),
      deviceStatus: expect.any(String),
      folderPath: expect.any(String),
    });
    expect((await create({ name: 'Shots', sourceType: 'SYSTEM', structureType: 'LIST', systemDatasourceType: 'SCREENSHOT' })).status).toBe(
      400,
    );
  });
});

describe('external datasources (spec 5 §1–§2)', () => {
  it('fetches JSON with a JSONPath within the request, keeps the last good data on failure and deactivates after 25', async () => {
    remote.routes['/prices.json'] = {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ data: { price: 3.2, currency: 'EUR' } }),
    };
    const ds = await created({
      name: 'Prices feed',
      sourceType: 'EXTERNAL',
      structureType: 'KEY_VALUE',
      type: 'JSON',
      remoteUrl: remote.url('/prices.json'),
      requestSettings: { method: 'GET', headers: { 'X-Api-Key': 'k' }, jsonPath: '$.data' },
    });
    const refreshed = await t.request('POST', `/api/datasource/refresh/${ds.id}?sync=true`, { token: editor });
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
    expect(refreshed.body).toMatchObject({ errorCounter: 0, nextRefreshTime: expect.any(Number) });
    expect(refreshed.body.lastError ?? null).toBeNull();
    expect((await t.request('GET', `/api/datasource/${ds.id}/data`, { token: viewer })).body).toEqual({ price: 3.2, currency: 'EUR' });
    expect(remote.requests.find((r) => r.path === '/prices.json')?.headers['x-api-key']).toBe('k');

    remote.routes['/prices.json'] = { status: 500, body: 'boom' };
    const failed = await t.request('POST', `/api/datasource/refresh/${ds.id}?sync=true`, { token: editor });
    expect(failed.body).toMatchObject({ errorCounter: 1, lastError: expect.stringContaining('500') });
    expect((await t.request('GET', `/api/datasource/${ds.id}/data`, { token: viewer })).body).toEqual({ price: 3.2, currency: 'EUR' });

    await t.db
      .update(datasources)
      .set({ errorCounter: DEACTIVATE_AFTER_ERRORS - 1 })
      .where(eq(datasources.id, ds.id));
    const last = await t.request('POST', `/api/datasource/refresh/${ds.id}?sync=true`, { token: editor });
    expect(last.body).toMatchObject({ errorCounter: DEACTIVATE_AFTER_ERRORS, deactivated: true });
    expect(last.body.nextRefreshTime ?? null).toBeNull();
    expect((await t.request('POST', `/api/datasource/refresh/${ds.id}`, { token: editor })).status).toBe(409);

    remote.routes['/prices.json'] = { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data: { price: 3.5 } }) };
    const reactivated = await t.request('PUT', `/api/datasource/${ds.id}`, { token: editor, json: { deactivated: false } });
    expect(reactivated.body).toMatchObject({ deactivated: false, errorCounter: 0 });
    expect(reactivated.body.nextRefreshTime).toBeLessThanOrEqual(Date.now());
  });

  it('merges RSS items by id across refreshes and uses the remote’s validators (304 keeps the data)', async () => {
    const now = Date.now();
    remote.routes['/news.xml'] = (req, res) => {
      if (req.headers['if-none-match'] === '"v2"') return void res.writeHead(304).end();
      res.writeHead(200, { 'content-type': 'application/rss+xml', etag: remote.routes.__rssVersion === undefined ? '"v1"' : '"v2"' });
      res.end(
        rssFeed(
          remote.routes.__rssVersion === undefined
            ? [{ guid: 'a', title: 'First', pubDate: new Date(now - 60_000) }]
            : [{ guid: 'b', title: 'Second', pubDate: new Date(now) }],
        ),
      );
    };
    const ds = await created({
      name: 'News',
      sourceType: 'EXTERNAL',
      structureType: 'FEED',
      type: 'RSS',
      remoteUrl: remote.url('/news.xml'),
    });
    await t.request('POST', `/api/datasource/refresh/${ds.id}?sync=true`, { token: editor });
    remote.routes.__rssVersion = { body: '' };
    await t.request('POST', `/api/datasource/refresh/${ds.id}?sync=true`, { token: editor });
    const feed = (await t.request('GET', `/api/datasource/${ds.id}/data`, { token: viewer })).body;
    expect(feed.items.map((i: { title: string }) => i.title)).toEqual(['Second', 'First']);
    const before = (await t.request('GET', `/api/v2/datasource/${ds.id}`, { token: viewer })).body.lastUpdated;
    const unchanged = await t.request('POST', `/api/datasource/refresh/${ds.id}?sync=true`, { token: editor });
    expect(unchanged.body).toMatchObject({ errorCounter: 0, lastUpdated: before });
    expect(remote.requests.filter((r) => r.path === '/news.xml').at(-1)?.headers['if-none-match']).toBe('"v2"');
  });

  it('refuses loopback addresses unless ALLOW_PRIVATE_NETWORK_FETCH, with a reason a person can read', async () => {
    const strict = await createTestContext();
    try {
      const owner = (await strict.actor('EDITOR')).token;
      const res = await strict.request('POST', '/api/datasource/test', {
        token: owner,
        json: { name: 'probe', sourceType: 'EXTERNAL', structureType: 'KEY_VALUE', type: 'JSON', remoteUrl: remote.url('/prices.json') },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ ok: false, error: expect.stringMatching(/127\.0\.0\.1|loopback|private/i) });
    } finally {
      await strict.close();
    }
  });

  it('refreshes each due datasource once when two instances tick at the same time', async () => {
    remote.routes['/count.json'] = { headers: { 'content-type': 'application/json' }, body: '{"n":1}' };
    const ids: string[] = [];
    for (let i = 0; i < 6; i++)
      ids.push(
        (
          await created({
            name: `Counter ${i}`,
            sourceType: 'EXTERNAL',
            structureType: 'KEY_VALUE',
            type: 'JSON',
            remoteUrl: remote.url('/count.json'),
          })
        ).id,
      );
    const log = createLogger('silent');
    const outbound = datasourceOutbound(t.config);
    const a = createRefresher({ db: t.db, outbound, log, concurrency: 16 });
    const b = createRefresher({ db: t.db, outbound, log, concurrency: 16 });
    const before = remote.hits('/count.json');
    const [na, nb] = await Promise.all([a.tick(), b.tick()]);
    await Promise.all([a.idle(), b.idle()]);
    expect(remote.hits('/count.json') - before).toBe(6);
    expect(na + nb).toBeGreaterThanOrEqual(6);
    // Each is due again a refresh period later, not now: a second tick finds none of them.
    expect((await claimDueDatasources(t.db, { limit: 100, leaseMs: REFRESH_LEASE_MS })).filter((id) => ids.includes(id))).toEqual([]);
    const rows = await t.db.select().from(datasources).where(eq(datasources.customerId, customerId));
    for (const row of rows.filter((r) => ids.includes(r.id))) expect(row.nextRefreshAt!.getTime()).toBeGreaterThan(Date.now() + 200_000);
    await Promise.all([a.stop(), b.stop()]);
  });

  it('claims a datasource when it falls due before the next tick, without waiting for the tick', async () => {
    remote.routes['/due-soon.json'] = { headers: { 'content-type': 'application/json' }, body: '{"soon":true}' };
    const ds = await created({
      name: 'Due soon',
      sourceType: 'EXTERNAL',
      structureType: 'KEY_VALUE',
      type: 'JSON',
      remoteUrl: remote.url('/due-soon.json'),
    });
    await t.db
      .update(datasources)
      .set({ nextRefreshAt: new Date(Date.now() + 1_500) })
      .where(eq(datasources.id, ds.id));
    const refresher = createRefresher({ db: t.db, outbound: datasourceOutbound(t.config), log: createLogger('silent'), concurrency: 16 });
    try {
      await refresher.tick();
      expect(remote.hits('/due-soon.json')).toBe(0);
      // One tick only: the refresher itself claims it once it is due (the next tick would come 5 s later).
      await expect.poll(() => remote.hits('/due-soon.json'), { timeout: 4_500, interval: 100 }).toBe(1);
      await refresher.idle();
      expect(await t.request('GET', `/api/datasource/${ds.id}/data`, { token: viewer }).then((r) => r.body)).toEqual({ soon: true });
    } finally {
      await refresher.stop();
    }
  });
});

describe('datasources in content and on screens', () => {
  it('content names its datasources: other tenants’ ids are 404, usage is listed, and delete is refused while used', async () => {
    const ds = await created(internal('Specials'));
    const foreign = await created(internal('Foreign'), otherEditor);
    const root = await contentRoot(customerId);
    const bad = await t.request('POST', `/api/content?contentGroupId=${root.id}`, {
      token: editor,
      json: { name: 'Bad', structureType: 'SLIDE', data: slideShowing(foreign.id) },
    });
    expect(bad.status).toBe(404);
    const slide = await t.request('POST', `/api/content?contentGroupId=${root.id}`, {
      token: editor,
      json: { name: 'Menu board', structureType: 'SLIDE', data: slideShowing(ds.id) },
    });
    expect(slide.status, JSON.stringify(slide.body)).toBe(201);

    const usage = await t.request('GET', `/api/datasource/usageDetails?search=${encodeURIComponent(`id=${ds.id}`)}`, { token: viewer });
    expect(usage.body.content).toEqual([
      {
        datasourceId: ds.id,
        datasourceName: 'Specials',
        contentId: slide.body.id,
        contentName: 'Menu board',
        deviceContentType: 'content',
        widgets: [{ page: 'Default', widgetId: 'price', widgetName: 'Price' }],
      },
    ]);
    const refused = await t.request('DELETE', `/api/datasource/${ds.id}`, { token: editor });
    expect(refused.status).toBe(409);
    expect(JSON.stringify(refused.body)).toContain('Menu board');
    expect((await t.request('DELETE', `/api/content/${slide.body.id}`, { token: editor })).status).toBe(204);
    expect((await t.request('DELETE', `/api/datasource/${ds.id}`, { token: editor })).status).toBe(204);
  });

  it('a device reads the data with an ETag (304 when current) and the manifest lists the datasource', async () => {
    const ds = await created(internal('Arrivals', 'LIST'));
    await t.request('PUT', `/api/datasource/${ds.id}/data`, { token: editor, json: ['LH 123', 'BA 456'] });
    const root = await contentRoot(customerId);
    const slide = await t.request('POST', `/api/content?contentGroupId=${root.id}`, {
      token: editor,
      json: { name: 'Arrivals board', structureType: 'SLIDE', data: slideShowing(ds.id) },
    });
    const device = await newDevice(t, { customerId });
    await t.db.update(devices).set({ contentId: slide.body.id }).where(eq(devices.id, device.deviceId));

    const read = await t.request('GET', `/api/display/datasource/${ds.id}`, { token: device.token });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(['LH 123', 'BA 456']);
    const etag = read.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    const again = await t.request('GET', `/api/display/datasource/${ds.id}`, { token: device.token, headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect((await t.request('GET', `/api/display/datasource/${ds.id}`, { token: editor })).status).toBe(401);
    const foreignDevice = await newDevice(t, { customerId: otherCustomerId });
    expect((await t.request('GET', `/api/display/datasource/${ds.id}`, { token: foreignDevice.token })).status).toBe(404);

    const manifest = await t.request('GET', '/api/display/manifest', { token: device.token });
    expect(manifest.status).toBe(200);
    expect(manifest.body.datasources).toEqual({ [ds.id]: { id: ds.id, name: 'Arrivals', structureType: 'LIST', etag } });
  });

  it('counts against the DATASOURCE limit and the customer’s datasource storage', async () => {
    const stats = await t.request('GET', '/api/fileFolder/storageStatistics', { token: viewer });
    expect(stats.body.usedDatasourceResourceStorageSize).toBeGreaterThan(0);
    const limits = await t.request('GET', '/api/resourceLimit', { token: viewer });
    if (limits.status === 200) expect(JSON.stringify(limits.body)).toContain('DATASOURCE');
  });
});

describe('request header values are credentials', () => {
  it('answers them to EDITOR and above; lower roles read which headers are sent, not their values', async () => {
    const ds = await created({
      name: 'Prices with a key',
      sourceType: 'EXTERNAL',
      structureType: 'CUSTOM',
      type: 'JSON',
      remoteUrl: remote.url('/keyed.json'),
      requestSettings: { method: 'GET', headers: { Authorization: 'Bearer s3cret', 'X-Shop': 'north' } },
    });
    const asEditor = await t.request('GET', `/api/v2/datasource/${ds.id}`, { token: editor });
    expect(asEditor.body.requestSettings.headers).toEqual({ Authorization: 'Bearer s3cret', 'X-Shop': 'north' });

    const asViewer = await t.request('GET', `/api/v2/datasource/${ds.id}`, { token: viewer });
    expect(asViewer.status).toBe(200);
    expect(asViewer.body.requestSettings).toEqual({ method: 'GET', headers: { Authorization: '********', 'X-Shop': '********' } });
    const listed = await t.request('GET', `/api/v2/datasource?search=${encodeURIComponent('name~with a key')}`, { token: viewer });
    expect(listed.body.content[0].requestSettings.headers).toEqual({ Authorization: '********', 'X-Shop': '********' });
    expect(JSON.stringify(listed.body)).not.toContain('s3cret');
  });
});
