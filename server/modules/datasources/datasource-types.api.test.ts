import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@/server/logger';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { refreshDatasource, type RefreshDeps } from './datasource-refresh';
import { datasourceOutbound } from './datasource-refresh.service';
import { fixture } from './formats/formats.test-kit';
import { rssFeed, startRemote } from './datasources.test-kit';

/*
 * Each external type of spec 5 §2 against a remote on 127.0.0.1 serving real-world-like documents: a large RSS feed,
 * an Outlook calendar with a Windows zone name, a CAP alert → update → cancel chain, XML, a scraped page; and what
 * goes wrong: a malformed document, a 20 MB body, a server that never answers. Refreshes run as the scheduler's do
 * (refreshDatasource), at a fixed `now` where the documents' dates need one.
 */

let t: TestContext;
let remote: Awaited<ReturnType<typeof startRemote>>;
let editor: string;
let deps: RefreshDeps;

beforeAll(async () => {
  t = await createTestContext({ ALLOW_PRIVATE_NETWORK_FETCH: 'true' });
  remote = await startRemote();
  const customerId = (await t.factories.customer()).id;
  editor = (await t.actor('EDITOR', { customerId })).token;
  deps = { db: t.db, outbound: datasourceOutbound(t.config), log: createLogger('silent') };
});
afterAll(async () => {
  await remote.close();
  await t.close();
});

async function external(body: Record<string, unknown>): Promise<string> {
  const res = await t.request('POST', '/api/datasource', { token: editor, json: { sourceType: 'EXTERNAL', ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);

  return res.body.id as string;
}
const read = async (id: string) => (await t.request('GET', `/api/v2/datasource/${id}`, { token: editor })).body;
const dataOf = async (id: string) => (await t.request('GET', `/api/datasource/${id}/data`, { token: editor })).body;
const at = (iso: string) => ({ ...deps, now: () => Date.parse(iso) });

describe('external types against a local remote', () => {
  it('RSS: a feed of 10 000 items is read and trimmed to the newest keepLastXItem', async () => {
    const now = Date.now();
    const items = Array.from({ length: 10_000 }, (_, i) => ({
      guid: `n${i}`,
      title: `Headline ${i}`,
      pubDate: new Date(now - i * 60_000),
      description: 'x'.repeat(200),
    }));
    remote.routes['/big.xml'] = { headers: { 'content-type': 'application/rss+xml' }, body: rssFeed(items) };
    const id = await external({
      name: 'Big feed',
      structureType: 'FEED',
      type: 'RSS',
      remoteUrl: remote.url('/big.xml'),
      keepLastXItem: 50,
    });
    expect(await refreshDatasource(deps, id)).toEqual({ ok: true, changed: true });
    const feed = await dataOf(id);
    expect(feed.items).toHaveLength(50);
    expect(feed.items[0]).toMatchObject({ id: 'n0', title: 'Headline 0' });
  }, 60_000);

  it('ICAL: an Outlook calendar with a Windows zone name, expanded in the datasource’s zone', async () => {
    remote.routes['/orion.ics'] = { headers: { 'content-type': 'text/calendar' }, body: fixture('calendar-outlook.ics') };
    const id = await external({
      name: 'Room Orion',
      structureType: 'LIST',
      type: 'ICAL',
      remoteUrl: remote.url('/orion.ics'),
      timeZone: 'Europe/Berlin',
    });
    expect(await refreshDatasource(at('2026-03-10T12:00:00Z'), id)).toMatchObject({ ok: true });
    const events = (await dataOf(id)) as Array<{ title: string; start: { dateTime: string; timeStamp: number } }>;
    const standups = events.filter((e) => e.title === 'Team standup').map((e) => e.start.dateTime);
    // Weekly on Mondays at 09:00 Berlin time (+01:00 before 29 March, +02:00 after), within [now − 1 day, now + 30 days].
    expect(standups).toContain('2026-03-16T09:00:00+01:00');
    expect(standups).toContain('2026-03-30T09:00:00+02:00');
    // RDATE adds Thursday 2 April; EXDATE removes Monday 6 April.
    expect(standups).toContain('2026-04-02T09:00:00+02:00');
    expect(standups).not.toContain('2026-04-06T09:00:00+02:00');
  });

  it('CAP: an alert, its update and its cancellation, applied through `references`', async () => {
    const id = await external({ name: 'Flood warnings', structureType: 'FEED', type: 'CAP', remoteUrl: remote.url('/cap.xml') });
    const serve = (name: string) =>
      (remote.routes['/cap.xml'] = { headers: { 'content-type': 'application/cap+xml' }, body: fixture(name) });
    const identifiers = async () => ((await dataOf(id)).items as Array<{ id: string }>).map((i) => i.id);
    serve('cap-flood-alert.xml');
    await refreshDatasource(at('2026-03-16T07:00:00+01:00'), id);
    expect(await identifiers()).toEqual(['HYDRO-2026-0316-001']);
    serve('cap-flood-update.xml');
    await refreshDatasource(at('2026-03-16T13:00:00+01:00'), id);
    expect(await identifiers()).toEqual(['HYDRO-2026-0316-002']);
    serve('cap-flood-cancel.xml');
    await refreshDatasource(at('2026-03-17T10:00:00+01:00'), id);
    expect(await identifiers()).toEqual([]);
  });

  it('XML with a JSONPath, and a scraped page whose scripts and event attributes are never stored', async () => {
    remote.routes['/catalog.xml'] = { headers: { 'content-type': 'application/xml' }, body: fixture('xml-catalog.xml') };
    const xml = await external({
      name: 'Catalog',
      structureType: 'CUSTOM',
      type: 'XML',
      remoteUrl: remote.url('/catalog.xml'),
      requestSettings: { method: 'GET', jsonPath: '$.*' },
    });
    expect(await refreshDatasource(deps, xml)).toMatchObject({ ok: true });
    expect(JSON.stringify(await dataOf(xml)).length).toBeGreaterThan(10);

    remote.routes['/menu.html'] = {
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: '<html><body><h1 onclick="alert(1)">Today<script>steal()</script></h1><p class="price" data-x="javascript:alert(1)">4,50 €</p></body></html>',
    };
    const page = await external({
      name: 'Menu page',
      structureType: 'KEY_VALUE',
      type: 'WEBSITE_CONTENT',
      remoteUrl: remote.url('/menu.html'),
      webScraperParameters: {
        selectors: [
          { name: 'title', selector: 'h1' },
          { name: 'price', selector: '.price' },
          { name: 'handler', selector: 'h1', attribute: 'onclick' },
        ],
      },
    });
    expect(await refreshDatasource(deps, page)).toMatchObject({ ok: true });
    const scraped = await dataOf(page);
    expect(scraped).toMatchObject({ title: 'Today', price: '4,50 €', handler: '' });
    expect(JSON.stringify(scraped)).not.toContain('steal');
  });

  it('a malformed document, a 20 MB body and a silent server each fail the refresh with a reason, keeping the last data', async () => {
    remote.routes['/flaky.xml'] = {
      headers: { 'content-type': 'application/rss+xml' },
      body: rssFeed([{ guid: 'ok', title: 'Still here', pubDate: new Date() }]),
    };
    const id = await external({ name: 'Flaky feed', structureType: 'FEED', type: 'RSS', remoteUrl: remote.url('/flaky.xml') });
    expect(await refreshDatasource(deps, id)).toMatchObject({ ok: true });

    remote.routes['/flaky.xml'] = { headers: { 'content-type': 'application/rss+xml' }, body: '<rss><channel><item><title>broken' };
    expect(await refreshDatasource(deps, id)).toMatchObject({ ok: false });
    expect(await read(id)).toMatchObject({ errorCounter: 1, lastError: expect.any(String) });

    remote.routes['/flaky.xml'] = { headers: { 'content-type': 'application/rss+xml' }, body: Buffer.alloc(20 * 1024 * 1024, 0x20) };
    const big = await refreshDatasource(deps, id);
    expect(big).toMatchObject({ ok: false, error: expect.stringMatching(/MiB|bytes|large/i) });

    remote.routes['/flaky.xml'] = () => undefined; // never answers
    const started = Date.now();
    const silent = await refreshDatasource({ ...deps, limits: { headersTimeoutMs: 300, bodyTimeoutMs: 600 } }, id);
    expect(silent).toMatchObject({ ok: false, error: expect.stringMatching(/time|answer|respond/i) });
    expect(Date.now() - started).toBeLessThan(10_000);

    expect(await read(id)).toMatchObject({ errorCounter: 3 });
    expect((await dataOf(id)).items.map((i: { title: string }) => i.title)).toEqual(['Still here']);
  });
});
