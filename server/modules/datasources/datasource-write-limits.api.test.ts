import { randomInt } from 'node:crypto';
import { and, eq, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authFailures } from '@/server/auth/failure-limit.table';
import { createLogger } from '@/server/logger';
import { devices } from '@/server/modules/devices/devices.table';
import { asDevice, newDevice, type TestDevice, connectDeviceSocket } from '@/server/modules/display/display.test-kit';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { rebuildDueCalendars } from './calendar-document';
import { MAX_STORED_EVENTS } from './calendar-events.service';
import { calendarEvents } from './calendar-events.table';
import { datasources } from './datasources.table';

/*
 * The limits on the public datasource writes (README "Limits on the public writes"): writes without credentials are
 * counted per client address and per datasource (small limits here: 5 and 8 a minute), a calendar stores at most
 * MAX_STORED_EVENTS events, and an internal calendar's document follows the clock without a write.
 */

const PER_ADDRESS = 5;
const PER_DATASOURCE = 8;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

let t: TestContext;
let customerId: number;
let editor: string;

beforeAll(async () => {
  t = await createTestContext({
    ANONYMOUS_WRITES_PER_ADDRESS_PER_MINUTE: String(PER_ADDRESS),
    ANONYMOUS_WRITES_PER_DATASOURCE_PER_MINUTE: String(PER_DATASOURCE),
  });
  customerId = (await t.factories.customer()).id;
  editor = (await t.actor('EDITOR', { customerId })).token;
});
afterAll(() => t.close());

/** A client address of its own per test (the in-process bridge's binding), so one test's counts do not reach another. */
const newAddress = () => `10.${randomInt(0, 256)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;

async function send(method: string, path: string, options: { address: string; token?: string; json?: unknown }) {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  const res = await t.app.request(
    path,
    { method, headers, body: options.json === undefined ? undefined : JSON.stringify(options.json) },
    { bridgeClientAddress: options.address },
  );
  const text = await res.text();

  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

let names = 0;
async function datasource(body: Record<string, unknown>): Promise<string> {
  const res = await t.request('POST', '/api/datasource', {
    token: editor,
    json: { name: `Open ${++names}`, sourceType: 'INTERNAL', editableByDisplay: true, ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);

  return res.body.id as string;
}

const merge = (id: string, address: string, json: unknown, token?: string) =>
  send('POST', `/api/display/datasource/${id}/merge`, { address, json, token });
const dataOf = async (id: string) => (await t.request('GET', `/api/datasource/${id}/data`, { token: editor })).body;

function expectLimited(res: { status: number; headers: Headers; body: any }) {
  expect(res.status, JSON.stringify(res.body)).toBe(429);
  expect(res.body).toMatchObject({ status: 429, key: 'request.error.rateLimited', details: { retryAfterSeconds: expect.any(Number) } });
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBe(res.body.details.retryAfterSeconds);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
}

describe('writes without credentials', () => {
  it('are refused with 429 and Retry-After past the limit of one address, leaving the document as the last accepted write', async () => {
    const id = await datasource({ structureType: 'KEY_VALUE' });
    const address = newAddress();
    for (let n = 1; n <= PER_ADDRESS; n++) expect((await merge(id, address, { n })).status).toBe(200);
    for (const n of [PER_ADDRESS + 1, PER_ADDRESS + 2]) expectLimited(await merge(id, address, { n }));
    expectLimited(await send('POST', `/api/display/datasource/${id}/set?key=n&value=99`, { address }));
    expect(await dataOf(id)).toEqual({ n: PER_ADDRESS });

    // Another address still writes.
    expect((await merge(id, newAddress(), { n: 42 })).status).toBe(200);
    expect(await dataOf(id)).toEqual({ n: 42 });
  });

  it('count an IPv6 address by its /64', async () => {
    const id = await datasource({ structureType: 'KEY_VALUE' });
    const network = `2001:db8:${randomInt(0, 0xffff).toString(16)}:1`;
    for (let n = 1; n <= PER_ADDRESS; n++) expect((await merge(id, `${network}::${n}`, { n })).status).toBe(200);
    expectLimited(await merge(id, `${network}:ffff::1`, { n: 0 }));
    expect((await merge(id, `2001:db8:${randomInt(0, 0xffff).toString(16)}:2::1`, { n: 0 })).status).toBe(200);
  });

  it('are refused past the limit of one datasource from any address; users and devices are not counted', async () => {
    const id = await datasource({ structureType: 'KEY_VALUE' });
    const first = newAddress();
    for (let n = 1; n <= PER_DATASOURCE; n++) expect((await merge(id, n <= PER_ADDRESS ? first : newAddress(), { n })).status).toBe(200);
    expectLimited(await merge(id, newAddress(), { n: 0 }));
    expect(await dataOf(id)).toEqual({ n: PER_DATASOURCE });

    // The same address and datasource, with credentials: written, as often as needed.
    const device = await newDevice(t, { customerId });
    for (let n = 1; n <= PER_ADDRESS + 1; n++) {
      expect((await merge(id, first, { byDevice: n }, device.token)).status).toBe(200);
      expect((await merge(id, first, { byEditor: n }, editor)).status).toBe(200);
    }
    expect(await dataOf(id)).toMatchObject({ byDevice: PER_ADDRESS + 1, byEditor: PER_ADDRESS + 1 });
  });

  it('count calendar event writes too: a refused create stores no event', async () => {
    const id = await datasource({ structureType: 'LIST' });
    const address = newAddress();
    const start = Math.ceil(Date.now() / HOUR) * HOUR + DAY;
    const create = (hour: number) =>
      send(
        'POST',
        `/public-api/calendars/events?datasourceId=${id}&start=${start + hour * HOUR}&end=${start + (hour + 1) * HOUR}&title=Slot`,
        {
          address,
        },
      );
    const first = await create(0);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    for (let hour = 1; hour < PER_ADDRESS - 1; hour++) expect((await create(hour)).status).toBe(201);
    const started = await send('PATCH', `/public-api/calendars/events/${first.body.id}/start?datasourceId=${id}`, { address });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expectLimited(await create(PER_ADDRESS));
    expectLimited(await send('PATCH', `/public-api/calendars/events/${first.body.id}/cancel?datasourceId=${id}`, { address }));
    const stored = await t.db.select().from(calendarEvents).where(eq(calendarEvents.datasourceId, id));
    expect(stored).toHaveLength(PER_ADDRESS - 1);
    expect(stored.filter((e) => e.status === 'CANCELLED')).toEqual([]);
  });

  it('answer 404 for an id that is unknown or closed to displays without keeping a counter for it', async () => {
    const closed = await datasource({ structureType: 'KEY_VALUE', editableByDisplay: false });
    const unknown = '0190f5b2-0000-7000-8000-00000000abcd';
    for (const id of [closed, unknown]) {
      expect((await merge(id, newAddress(), { a: 1 })).status).toBe(404);
      const counters = await t.db
        .select()
        .from(authFailures)
        .where(like(authFailures.subject, `%${id}`));
      expect(counters).toEqual([]);
    }
  });
});

describe('the number of events a calendar stores', () => {
  it(`refuses a create once ${MAX_STORED_EVENTS} are stored (409), and makes room by deleting long-ended and cancelled events`, async () => {
    const id = await datasource({ structureType: 'LIST' });
    // Stored directly: creating them through the API would take minutes.
    await t.db.execute(sql`
      insert into ${calendarEvents} (id, datasource_id, customer_id, status, title, starts_at, ends_at)
      select gen_random_uuid(), ${id}::uuid, ${customerId}, 'CONFIRMED', 'Filler ' || n,
             timestamptz '2100-01-01T00:00:00Z' + n * interval '1 hour', timestamptz '2100-01-01T00:00:00Z' + n * interval '61 minutes'
        from generate_series(1, ${MAX_STORED_EVENTS}) as n`);
    const start = Math.ceil(Date.now() / HOUR) * HOUR + DAY;
    const create = (title: string) =>
      t.request('POST', `/public-api/calendars/events?datasourceId=${id}&start=${start}&end=${start + HOUR}&title=${title}`, {
        token: editor,
      });

    const full = await create('One%20too%20many');
    expect(full.status, JSON.stringify(full.body)).toBe(409);
    expect(full.body).toMatchObject({
      key: 'calendarEvent.error.tooManyEvents',
      details: { id, stored: MAX_STORED_EVENTS, limit: MAX_STORED_EVENTS },
      message: expect.stringContaining('30 days after they end'),
    });

    // A cancelled event that is kept only a day, and one that ended 31 days ago, go with the next create.
    const [cancelled, ended] = await t.db
      .select({ id: calendarEvents.id })
      .from(calendarEvents)
      .where(eq(calendarEvents.datasourceId, id))
      .limit(2);
    await t.db
      .update(calendarEvents)
      .set({ status: 'CANCELLED', updated: new Date(Date.now() - 2 * DAY) })
      .where(eq(calendarEvents.id, cancelled!.id));
    await t.db
      .update(calendarEvents)
      .set({ startsAt: new Date(Date.now() - 32 * DAY), endsAt: new Date(Date.now() - 31 * DAY) })
      .where(eq(calendarEvents.id, ended!.id));
    expect((await create('Fits%20again')).status).toBe(201);
    const remaining = await t.db
      .select({ id: calendarEvents.id })
      .from(calendarEvents)
      .where(and(eq(calendarEvents.datasourceId, id), sql`${calendarEvents.id} in (${cancelled!.id}::uuid, ${ended!.id}::uuid)`));
    expect(remaining).toEqual([]);
    expect((await create('Next')).status).toBe(409);
  });
});

const connect = (base: string, device: TestDevice) => connectDeviceSocket(t, base, device);

/** A device showing a slide with a datasource widget of `datasourceId`, so it hears `datasourceChanged` for it. */
async function deviceShowing(datasourceId: string): Promise<TestDevice> {
  const root = await t.request('GET', '/api/v2/contentGroup?search=parentId=NULL', { token: editor });
  const groupId = (root.body.content as Array<{ id: string; parentId?: string | null }>).find((g) => !g.parentId)!.id;
  const widget = {
    id: 'w',
    type: 'datasource',
    x: 0,
    y: 0,
    width: 300,
    height: 100,
    zIndex: 1,
    mode: 'text',
    datasourceId,
    field: 'title',
  };
  const slide = await t.request('POST', `/api/content?contentGroupId=${groupId}`, {
    token: editor,
    json: {
      name: `Room board ${++names}`,
      structureType: 'SLIDE',
      data: { Default: { pageData: { screenSize: { width: 1920, height: 1080 } }, widgets: [widget] } },
    },
  });
  expect(slide.status, JSON.stringify(slide.body)).toBe(201);
  const device = await newDevice(t, { customerId });
  await t.db.update(devices).set({ contentId: slide.body.id }).where(eq(devices.id, device.deviceId));

  return device;
}

/** When the datasource's calendar document is due to be built again (epoch ms), or null. */
async function rebuildAtOf(id: string): Promise<number | null> {
  const [row] = await t.db.select({ at: datasources.calendarRebuildAt }).from(datasources).where(eq(datasources.id, id));

  return row?.at?.getTime() ?? null;
}

/* With an editor's token: the anonymous limit of the tests' shared address is small. */
describe('an internal calendar’s document follows the clock', () => {
  const log = createLogger('silent');
  const tickAt = (at: number) => rebuildDueCalendars({ db: t.db, log, now: () => at });

  it('shows a suspension that ran out as CONFIRMED after the tick, and the devices hear of it', async () => {
    const base = await t.listen();
    const id = await datasource({ structureType: 'LIST' });
    const start = Date.now() + HOUR;
    const created = await t.request(
      'POST',
      `/public-api/calendars/events?datasourceId=${id}&start=${start}&end=${start + HOUR}&title=Review`,
      {
        token: editor,
      },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const suspended = await t.request('PATCH', `/public-api/calendars/events/${created.body.id}/suspend?datasourceId=${id}&duration=15`, {
      token: editor,
    });
    expect(suspended.body.status).toBe('SUSPENDED');
    const suspendedAt = Date.now();
    const device = await deviceShowing(id);
    const read = () => asDevice(t, device.token)('GET', `/api/display/datasource/${id}`);
    expect((await read()).body).toEqual([expect.objectContaining({ id: created.body.id, status: 'SUSPENDED' })]);

    const screen = await connect(base, device);
    try {
      // Before the suspension ends nothing is due; after it the tick builds the document again.
      await tickAt(suspendedAt + 14 * MINUTE);
      expect((await read()).body[0].status).toBe('SUSPENDED');
      expect(await tickAt(suspendedAt + 16 * MINUTE)).toBeGreaterThanOrEqual(1);
      expect((await read()).body).toEqual([expect.objectContaining({ id: created.body.id, status: 'CONFIRMED' })]);
      await expect
        .poll(() => screen.frames.filter((f) => f.type === 'datasourceChanged'), { timeout: 5_000 })
        .toEqual([{ type: 'datasourceChanged', id }]);
      // Built at that instant, the document is not due again until its event leaves the window (a day after its end).
      expect(await rebuildAtOf(id)).toBe(start + HOUR + DAY);
    } finally {
      screen.socket.close();
    }
  });

  it('lets an event leave the window a day after its end, and one enter it 366 days ahead', async () => {
    const id = await datasource({ structureType: 'LIST' });
    const now = Date.now();
    const soon = { start: now + HOUR, end: now + 2 * HOUR };
    const farAhead = { start: now + 400 * DAY, end: now + 400 * DAY + HOUR };
    for (const [title, times] of [
      ['Soon', soon],
      ['Next year', farAhead],
    ] as const) {
      const res = await t.request(
        'POST',
        `/public-api/calendars/events?datasourceId=${id}&start=${times.start}&end=${times.end}&title=${title}`,
        {
          token: editor,
        },
      );
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const titles = async () => ((await dataOf(id)) as Array<{ title: string }>).map((e) => e.title);
    expect(await titles()).toEqual(['Soon']);

    await tickAt(soon.end + DAY + MINUTE);
    expect(await titles()).toEqual([]);
    await tickAt(farAhead.start - 366 * DAY + MINUTE);
    expect(await titles()).toEqual(['Next year']);
  });

  it('stops building the document of a datasource that no longer keeps its own events', async () => {
    const id = await datasource({ structureType: 'LIST' });
    const start = Date.now() + HOUR;
    const created = await t.request(
      'POST',
      `/public-api/calendars/events?datasourceId=${id}&start=${start}&end=${start + HOUR}&title=Kept`,
      {
        token: editor,
      },
    );
    expect(created.status).toBe(201);
    const closed = await t.request('PUT', `/api/datasource/${id}`, { token: editor, json: { editableByDisplay: false } });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    expect(await rebuildAtOf(id)).toBe(start + HOUR + DAY);
    await tickAt(start + HOUR + DAY + MINUTE);
    expect(await dataOf(id)).toEqual([expect.objectContaining({ title: 'Kept' })]);
    expect(await rebuildAtOf(id)).toBeNull();
  });
});
