import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '@/server/test/harness';

/*
 * Hostile input against the routes the shared sweeps do not walk with credentials of their own kind: the public
 * `set`/`merge` writes and the public calendar family (anonymous on an editable datasource).
 */

let t: TestContext;
let editor: string;
let otherEditor: string;
let open: string;
let foreign: string;

beforeAll(async () => {
  t = await createTestContext();
  const customerId = (await t.factories.customer()).id;
  const otherCustomerId = (await t.factories.customer()).id;
  editor = (await t.actor('EDITOR', { customerId })).token;
  otherEditor = (await t.actor('EDITOR', { customerId: otherCustomerId })).token;
  const body = (name: string, structureType = 'KEY_VALUE') => ({ name, sourceType: 'INTERNAL', structureType, editableByDisplay: true });
  open = (await t.request('POST', '/api/datasource', { token: editor, json: body('Open') })).body.id;
  foreign = (await t.request('POST', '/api/datasource', { token: otherEditor, json: body('Theirs') })).body.id;
});
afterAll(() => t.close());

describe('public datasource writes under attack', () => {
  it('refuses NUL characters in the key, the value and the body with a 400', async () => {
    expect((await t.request('POST', `/api/display/datasource/${open}/set?key=a%00b&value=1`)).status).toBe(400);
    expect((await t.request('POST', `/api/display/datasource/${open}/set?key=a&value=x%00y`)).status).toBe(400);
    const res = await t.request('POST', `/api/display/datasource/${open}/merge`, { json: { a: 'x\u0000y' } });
    expect(res.status).toBe(400);
  });

  it('refuses a 20 MB body before reading it (413) and keeps the document', async () => {
    const big = { blob: 'x'.repeat(20 * 1024 * 1024) };
    expect((await t.request('POST', `/api/display/datasource/${open}/merge`, { json: big })).status).toBe(413);
    // The calendar routes take no body: one is ignored, the request is judged on its query (a KEY_VALUE datasource holds no events).
    const calendar = await t.request('POST', `/public-api/calendars/events?datasourceId=${open}&start=1&end=2&title=x`, { json: big });
    expect(calendar.status).toBe(409);
    expect((await t.request('GET', `/api/datasource/${open}/data`, { token: editor })).body).toEqual({});
  });

  it('answers another tenant’s datasource like a missing one, for every caller kind', async () => {
    expect((await t.request('POST', `/api/display/datasource/${foreign}/set?key=a&value=1`, { token: editor })).status).toBe(404);
    expect((await t.request('POST', `/api/display/datasource/${foreign}/merge`, { token: editor, json: { a: 1 } })).status).toBe(404);
    const from = Date.now();
    const list = await t.request('GET', `/public-api/calendars/events?datasourceId=${foreign}&from=${from}&to=${from + 3_600_000}`, {
      token: editor,
    });
    expect(list.status).toBe(404);
  });

  it('applies the same write sent twice at once exactly as once, and both callers get a correct answer', async () => {
    const [a, b] = await Promise.all([
      t.request('POST', `/api/display/datasource/${open}/merge`, { json: { counter: { seen: true } } }),
      t.request('POST', `/api/display/datasource/${open}/merge`, { json: { counter: { seen: true } } }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body).toMatchObject({ counter: { seen: true } });
    const data = await t.request('GET', `/api/datasource/${open}/data`, { token: editor });
    expect(data.body).toMatchObject({ counter: { seen: true } });
  });
});
