import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { auditLog } from './audit-log.table';

let t: TestContext;
let customerId: number;
let ownerToken: string;
// Entries far in the past: signing in writes entries of its own (now), which `to=END` leaves out.
const T0 = Date.UTC(2020, 0, 1);
const END = T0 + 3_600_000;

beforeAll(async () => {
  t = await createTestContext();
  const customer = await t.factories.customer({ name: `Audit ${Date.now()}` });
  customerId = customer.id;
  ownerToken = (await t.actor('OWNER', { customerId })).token;
  const other = await t.factories.customer();
  const base = { action: 'update', entityType: 'device', customerId, customerName: customer.name };
  await t.db.insert(auditLog).values([
    { ...base, time: new Date(T0), message: 'first entry', userEmail: 'alice@example.com', deviceId: 'd1', deviceName: 'Lobby Screen' },
    { ...base, time: new Date(T0 + 1000), message: 'has "quotes", commas\nand a newline', userEmail: 'bob@example.com', logLevel: 'WARN' },
    { ...base, time: new Date(T0 + 2000), message: 'third', contentId: 'c1', contentName: 'Menu Board' },
    { ...base, time: new Date(T0 + 2000), message: 'fourth, same time', datasourceId: 'ds', datasourceName: 'Prices' },
    { action: 'update', entityType: 'device', customerId: other.id, time: new Date(T0 + 500), message: 'other tenant entry' },
  ]);
});
afterAll(() => t.close());

const get = (query: string, token = ownerToken) =>
  t.request('GET', `/api/v2/log${query}${query.includes('to=') ? '' : `${query ? '&' : '?'}to=${END}`}`, { token });

describe('GET /api/v2/log', () => {
  it("pages the tenant's entries, newest first, id breaking ties; nulls omitted", async () => {
    const res = await get('?size=2');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ totalElements: 4, totalPages: 2, number: 0, size: 2, first: true, last: false });
    expect(res.body.content.map((e: { message: string }) => e.message)).toEqual(['fourth, same time', 'third']);
    expect(res.body.content[1]).toEqual({
      time: new Date(T0 + 2000).toISOString(),
      logLevel: 'INFO',
      message: 'third',
      contentId: 'c1',
      contentName: 'Menu Board',
      customerId,
      customerName: expect.any(String),
    });
    const page2 = await get('?size=2&page=1');
    expect(page2.body.content.map((e: { message: string }) => e.message)).toEqual(['has "quotes", commas\nand a newline', 'first entry']);
  });

  it('orders ascending and filters by from/to (inclusive)', async () => {
    const asc = await get('?order=ASC');
    expect(asc.body.content.map((e: { message: string }) => e.message)).toEqual([
      'first entry',
      'has "quotes", commas\nand a newline',
      'third',
      'fourth, same time',
    ]);
    const window = await get(`?from=${T0 + 1000}&to=${T0 + 1000}`);
    expect(window.body.content.map((e: { message: string }) => e.message)).toEqual(['has "quotes", commas\nand a newline']);
    expect((await get(`?from=${T0 + 2001}`)).body.totalElements).toBe(0);
    expect((await get(`?from=${T0 + 2001}&to=${Date.now() + 60_000}`)).body.totalElements).toBe(1); // the sign-in entry
    expect((await get('?from=yesterday')).status).toBe(400);
    expect((await get(`?from=${T0 + 10}&to=${T0}`)).body).toMatchObject({ status: 400, key: 'request.error.invalidCombination' });
  });

  it('searches message, user e-mail and entity names, case-insensitively', async () => {
    const hits = async (q: string) =>
      (await get(`?search=${encodeURIComponent(q)}`)).body.content.map((e: { message: string }) => e.message);
    expect(await hits('LOBBY')).toEqual(['first entry']);
    expect(await hits('bob@')).toEqual(['has "quotes", commas\nand a newline']);
    expect(await hits('menu board')).toEqual(['third']);
    expect(await hits('prices')).toEqual(['fourth, same time']);
    expect(await hits('%')).toEqual([]);
    expect(await hits('other tenant')).toEqual([]);
  });

  it('requires customerId for ADMIN (400), accepts -1 and a tenant; refuses roles below OWNER', async () => {
    const admin = await t.actor('ADMIN');
    const missing = await get('', admin.token);
    expect(missing.status).toBe(400);
    expect(missing.body.key).toBe('log.error.customerIdRequired');
    expect((await get(`?customerId=${customerId}`, admin.token)).body.totalElements).toBe(4);
    expect((await get('?customerId=-1', admin.token)).body.totalElements).toBeGreaterThanOrEqual(5);
    const tech = await t.actor('TECHNICIAN', { customerId });
    expect((await get('', tech.token)).status).toBe(403);
    expect((await t.request('GET', '/api/v2/log/csv', { token: tech.token })).status).toBe(403);
  });
});

describe('GET /api/v2/log/csv', () => {
  it('streams an RFC 4180 attachment with a header row and the same filters', async () => {
    const res = await t.app.request(`/api/v2/log/csv?order=ASC&to=${END}`, { headers: { authorization: `Bearer ${ownerToken}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename=/);
    const lines = (await res.text()).split('\r\n');
    expect(lines[0]).toBe(
      'time,logLevel,message,userEmail,deviceId,deviceName,contentId,contentName,datasourceId,datasourceName,customerId,customerName',
    );
    expect(lines[1]).toMatch(
      new RegExp(`^${new Date(T0).toISOString()},INFO,first entry,alice@example.com,d1,Lobby Screen,,,,,${customerId},`),
    );
    expect(lines[2]).toContain('WARN,"has ""quotes"", commas\nand a newline",bob@example.com');
    expect(lines[4]).toContain('"fourth, same time"');
    expect(lines.at(-1)).toBe('');
    expect(lines).toHaveLength(6);
    const filtered = await t.app.request(`/api/v2/log/csv?search=menu&to=${END}`, { headers: { authorization: `Bearer ${ownerToken}` } });
    expect((await filtered.text()).split('\r\n').filter(Boolean)).toHaveLength(2);
  });

  it('reads in batches: more rows than one batch arrive complete and in order', async () => {
    const c = await t.factories.customer();
    const token = (await t.actor('OWNER', { customerId: c.id })).token;
    const rows = Array.from({ length: 2503 }, (_, i) => ({
      action: 'x',
      entityType: 'y',
      customerId: c.id,
      time: new Date(T0 + Math.floor(i / 3)),
      message: `m${i}`,
    }));
    await t.db.insert(auditLog).values(rows);
    const res = await t.app.request(`/api/v2/log/csv?to=${END}`, { headers: { authorization: `Bearer ${token}` } });
    const lines = (await res.text()).split('\r\n').filter(Boolean).slice(1);
    expect(lines).toHaveLength(2503);
    expect(new Set(lines).size).toBe(2503);
    expect(lines[0]).toContain(',m2502,');
    expect(lines.at(-1)).toContain(',m0,');
  });

  it('answers a 400, not a cut-off file, for an instant past year 9999 (the last one PostgreSQL reads)', async () => {
    const auth = { headers: { authorization: `Bearer ${ownerToken}` } };
    const lastMs = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
    expect((await t.app.request(`/api/v2/log/csv?from=${lastMs}`, auth)).status).toBe(200);
    for (const path of [`/api/v2/log/csv?from=${lastMs + 1}`, `/api/v2/log?from=5000000000000000`]) {
      const res = await t.app.request(path, auth);
      expect(res.status, path).toBe(400);
      expect(((await res.json()) as { key: string }).key).toBe('request.error.invalid');
    }
  });
});

describe('writeAudit', () => {
  it('names the tenant from its id when the writer gives only the id', async () => {
    const { writeAudit } = await import('./audit-log.writer');
    const { eq } = await import('drizzle-orm');
    await writeAudit(
      t.db,
      { kind: 'system', name: 'test' },
      { action: 'create', entityType: 'file', entityId: 'named-by-id', customerId, message: 'File uploaded' },
    );
    const [entry] = await t.db.select().from(auditLog).where(eq(auditLog.entityId, 'named-by-id'));
    expect(entry!.customerName).toMatch(/^Audit /);
  });
});
