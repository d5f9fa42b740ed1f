import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '@/server/modules/audit-log/audit-log.table';
import { newDevice } from '@/server/modules/display/display.test-kit';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { startRemote } from './datasources.test-kit';

/* Spec 2 "Calendar events (public family)", spec 5 §3, DECISIONS §6: the public calendar endpoints over datasources. */

let t: TestContext;
let remote: Awaited<ReturnType<typeof startRemote>>;
let customerId: number;
let otherCustomerId: number;
let editor: string;
let viewer: string;
let otherEditor: string;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** A whole hour tomorrow or later: inside the document's window of coming events. */
const base = Math.ceil(Date.now() / HOUR) * HOUR + DAY;
const at = (hours: number) => base + hours * HOUR;

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

type Params = Record<string, string | number | boolean | undefined>;
const query = (params: Params) =>
  new URLSearchParams(Object.entries(params).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]]))).toString();
const EVENTS = '/public-api/calendars/events';
const list = (params: Params, token?: string) => t.request('GET', `${EVENTS}?${query(params)}`, { token });
const create = (params: Params, token?: string) => t.request('POST', `${EVENTS}?${query(params)}`, { token });
const patch = (eventId: string, action: string, params: Params, token?: string) =>
  t.request('PATCH', `${EVENTS}/${eventId}/${action}?${query(params)}`, { token });

let names = 0;
async function datasource(body: Record<string, unknown>, customerToken = editor): Promise<string> {
  const res = await t.request('POST', '/api/datasource', {
    token: customerToken,
    json: { name: `Calendar ${++names}`, sourceType: 'INTERNAL', structureType: 'LIST', ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);

  return res.body.id as string;
}
/** An INTERNAL LIST datasource screens may write, in a zone without daylight saving time (+05:30). */
const room = (extra: Record<string, unknown> = {}) => datasource({ editableByDisplay: true, timeZone: 'Asia/Kolkata', ...extra });

async function created(datasourceId: string, start: number, end: number, title: string, token?: string) {
  const res = await create({ datasourceId, start, end, title }, token);
  expect(res.status, JSON.stringify(res.body)).toBe(201);

  return res.body as { id: string; title: string; status: string; start: { timeStamp: number }; end: { timeStamp: number } };
}

const titlesOf = (body: Array<{ title: string }>) => body.map((e) => e.title);

describe('calendar events of an INTERNAL datasource editable by displays', () => {
  it('creates, lists and changes events through every endpoint, answering the event each time', async () => {
    const id = await room();
    const later = await created(id, at(3), at(4), 'Retro');
    const first = await created(id, at(1), at(2), 'Stand-up');
    expect(first).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      status: 'CONFIRMED',
      title: 'Stand-up',
      isStarted: false,
      attendees: [],
      start: { timeStamp: at(1), dateTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:30:00\+05:30$/) },
      end: { timeStamp: at(2) },
      created: expect.any(Number),
      updated: expect.any(Number),
    });

    const all = await list({ datasourceId: id, from: at(0), to: at(5) });
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    expect(titlesOf(all.body)).toEqual(['Stand-up', 'Retro']);
    // [from, to) is half-open: an event ending at `from` or starting at `to` is outside.
    expect(titlesOf((await list({ datasourceId: id, from: at(2), to: at(3) })).body)).toEqual([]);
    expect(titlesOf((await list({ datasourceId: id, from: at(1.5), to: at(3.5) })).body)).toEqual(['Stand-up', 'Retro']);

    const started = await patch(first.id, 'start', { datasourceId: id, startedBy: 'Reception' });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body).toMatchObject({ id: first.id, isStarted: true, startedBy: 'Reception' });

    const ended = await patch(first.id, 'end', { datasourceId: id, endDate: at(1.5) });
    expect(ended.status, JSON.stringify(ended.body)).toBe(200);
    expect(ended.body.end.timeStamp).toBe(at(1.5));

    const extended = await patch(first.id, 'extend', { datasourceId: id, duration: 30 });
    expect(extended.status, JSON.stringify(extended.body)).toBe(200);
    expect(extended.body.end.timeStamp).toBe(at(2));

    const suspended = await patch(later.id, 'suspend', { datasourceId: id, duration: 15 });
    expect(suspended.status, JSON.stringify(suspended.body)).toBe(200);
    expect(suspended.body).toMatchObject({ id: later.id, status: 'SUSPENDED' });
    const resumed = await patch(later.id, 'start', { datasourceId: id });
    expect(resumed.body).toMatchObject({ status: 'CONFIRMED', isStarted: true });
    expect(resumed.body.startedBy).toBeUndefined();

    const cancelled = await patch(later.id, 'cancel', { datasourceId: id });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.status).toBe('CANCELLED');
    expect((await patch(later.id, 'cancel', { datasourceId: id })).body.status).toBe('CANCELLED');
    expect(titlesOf((await list({ datasourceId: id, from: at(0), to: at(5) })).body)).toEqual(['Stand-up']);
    const afterCancel = await patch(later.id, 'extend', { datasourceId: id, duration: 10 });
    expect(afterCancel.status).toBe(409);
    expect(afterCancel.body.key).toBe('calendarEvent.error.cancelled');

    const audit = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'datasource'), eq(auditLog.entityId, id)));
    // Two creates, start, end, extend, suspend, start, one cancel (the second changes nothing).
    expect(audit.filter((a) => a.message.startsWith('Calendar event'))).toHaveLength(8);
  });

  it('writes times in the datasource’s zone, UTC when it has none', async () => {
    const utc = await datasource({ editableByDisplay: true });
    const event = await created(utc, at(1), at(2), 'Lunch');
    expect(event.start).toEqual({ timeStamp: at(1), dateTime: new Date(at(1)).toISOString().replace('.000Z', '+00:00') });
  });

  it('refuses overlapping events (409), half-open: an event may start when another ends; a cancelled one frees its time', async () => {
    const id = await room();
    const meeting = await created(id, at(1), at(2), 'Planning');
    for (const [start, end] of [
      [at(1), at(2)],
      [at(0.5), at(1.5)],
      [at(1.5), at(3)],
      [at(1.25), at(1.75)],
      [at(0), at(4)],
    ]) {
      const res = await create({ datasourceId: id, start, end, title: 'Clash' });
      expect(res.status, `${start}–${end}`).toBe(409);
      expect(res.body).toMatchObject({ key: 'calendarEvent.error.overlap', details: { eventId: meeting.id } });
    }
    const before = await created(id, at(0), at(1), 'Before');
    const after = await created(id, at(2), at(3), 'After');
    expect(titlesOf((await list({ datasourceId: id, from: at(0), to: at(3) })).body)).toEqual(['Before', 'Planning', 'After']);

    // Moving an end later must not run into the next event; earlier is fine.
    const extend = await patch(meeting.id, 'extend', { datasourceId: id, duration: 1 });
    expect(extend.status).toBe(409);
    expect(extend.body.key).toBe('calendarEvent.error.overlap');
    expect((await patch(meeting.id, 'end', { datasourceId: id, endDate: at(2.5) })).status).toBe(409);
    expect((await patch(meeting.id, 'end', { datasourceId: id, endDate: at(1.5) })).status).toBe(200);
    expect((await patch(meeting.id, 'extend', { datasourceId: id, duration: 30 })).status).toBe(200);
    const tooEarly = await patch(meeting.id, 'end', { datasourceId: id, endDate: at(1) });
    expect(tooEarly.status).toBe(400);
    expect(tooEarly.body.key).toBe('calendarEvent.error.invalidEnd');

    await patch(after.id, 'cancel', { datasourceId: id });
    await created(id, at(2), at(2.5), 'In the freed slot');
    expect(before.title).toBe('Before');
  });

  it('serialises concurrent creates on the datasource: of two overlapping ones, one is created and one refused', async () => {
    const id = await room();
    const answers = await Promise.all([
      create({ datasourceId: id, start: at(1), end: at(2), title: 'First' }),
      create({ datasourceId: id, start: at(1.5), end: at(2.5), title: 'Second' }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    expect((await list({ datasourceId: id, from: at(0), to: at(3) })).body).toHaveLength(1);
  });

  it('keeps the datasource’s document as the list of coming events: the device read changes (ETag) after a write', async () => {
    const id = await room();
    const device = await newDevice(t, { customerId });
    const read = () => t.request('GET', `/api/display/datasource/${id}`, { token: device.token });
    const empty = await read();
    expect(empty.body).toEqual([]);
    const etag = empty.headers.get('etag')!;

    const event = await created(id, at(1), at(2), 'Interview');
    const notCurrent = await t.request('GET', `/api/display/datasource/${id}`, { token: device.token, headers: { 'if-none-match': etag } });
    expect(notCurrent.status).toBe(200);
    expect(notCurrent.headers.get('etag')).not.toBe(etag);
    expect(notCurrent.body).toEqual([expect.objectContaining({ id: event.id, title: 'Interview', status: 'CONFIRMED' })]);
    expect((await t.request('GET', `/api/datasource/${id}/data`, { token: viewer })).body).toEqual(notCurrent.body);
    const lastUpdated = (await t.request('GET', `/api/v2/datasource/${id}`, { token: viewer })).body.lastUpdated;
    expect(lastUpdated).toEqual(expect.any(Number));

    await patch(event.id, 'cancel', { datasourceId: id });
    expect((await read()).body).toEqual([]);
  });
});

describe('who calls (DECISIONS §6)', () => {
  it('takes no credentials for an editable datasource, a device of the tenant, and users (EDITOR to write)', async () => {
    const id = await room();
    const anonymous = await created(id, at(1), at(2), 'Walk-in');
    const device = await newDevice(t, { customerId });
    const byDevice = await created(id, at(2), at(3), 'Booked at the door', device.token);
    expect((await list({ datasourceId: id, from: at(0), to: at(4) }, device.token)).body).toHaveLength(2);
    expect((await patch(byDevice.id, 'start', { datasourceId: id, startedBy: 'Door panel' }, device.token)).status).toBe(200);
    expect((await list({ datasourceId: id, from: at(0), to: at(4) }, viewer)).body).toHaveLength(2);
    const byViewer = await create({ datasourceId: id, start: at(5), end: at(6), title: 'No' }, viewer);
    expect(byViewer.status).toBe(403);
    expect((await patch(anonymous.id, 'extend', { datasourceId: id, duration: 5 }, editor)).status).toBe(409);
    expect((await patch(anonymous.id, 'end', { datasourceId: id, endDate: at(1.5) }, editor)).status).toBe(200);
    expect((await list({ datasourceId: id, from: at(0), to: at(4) }, 'not-a-token')).status).toBe(401);
    const audit = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'datasource'), eq(auditLog.entityId, id)));
    expect(new Set(audit.map((a) => a.actorKind))).toEqual(new Set(['system', 'device', 'user']));
  });

  it('answers 404 for another tenant’s datasource, an anonymous caller of a closed one, and an event of another datasource', async () => {
    const id = await room();
    const event = await created(id, at(1), at(2), 'Mine');
    const window = { datasourceId: id, from: at(0), to: at(3) };
    expect((await list(window, otherEditor)).status).toBe(404);
    expect((await create({ datasourceId: id, start: at(4), end: at(5), title: 'Theirs' }, otherEditor)).status).toBe(404);
    const foreignDevice = await newDevice(t, { customerId: otherCustomerId });
    expect((await list(window, foreignDevice.token)).status).toBe(404);
    expect((await patch(event.id, 'cancel', { datasourceId: id }, foreignDevice.token)).status).toBe(404);

    const closed = await datasource({});
    const anonymousRead = await list({ ...window, datasourceId: closed });
    expect(anonymousRead.status).toBe(404);
    expect(anonymousRead.body.key).toBe('datasource.error.notFound');
    expect((await create({ datasourceId: closed, start: at(1), end: at(2), title: 'X' })).status).toBe(404);
    expect((await list({ ...window, datasourceId: '0190f5b2-0000-7000-8000-000000000000' })).status).toBe(404);

    const other = await room();
    const wrongDatasource = await patch(event.id, 'start', { datasourceId: other });
    expect(wrongDatasource.status).toBe(404);
    expect(wrongDatasource.body.key).toBe('calendarEvent.error.notFound');
  });

  it('refuses writes to datasources that are not open to displays or not lists (409), and reads of ones without events', async () => {
    const closed = await datasource({});
    const read = await list({ datasourceId: closed, from: at(0), to: at(1) }, editor);
    expect(read.status).toBe(409);
    expect(read.body.key).toBe('calendarEvent.error.notCalendar');
    const write = await create({ datasourceId: closed, start: at(0), end: at(1), title: 'X' }, editor);
    expect(write.status).toBe(409);
    expect(write.body.key).toBe('calendarEvent.error.notEditableByDisplay');

    const keyValue = await datasource({ editableByDisplay: true, structureType: 'KEY_VALUE' });
    const notList = await create({ datasourceId: keyValue, start: at(0), end: at(1), title: 'X' });
    expect(notList.status).toBe(409);
    expect(notList.body).toMatchObject({ key: 'calendarEvent.error.notList', details: { structureType: 'KEY_VALUE', required: 'LIST' } });
  });
});

const ics = (lines: string[]) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//calendar//EN', ...lines, 'END:VCALENDAR', ''].join('\r\n');
const icsTime = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
const vevent = (uid: string, start: number, end: number, extra: string[]) => [
  'BEGIN:VEVENT',
  `UID:${uid}`,
  `DTSTAMP:${icsTime(base)}`,
  `DTSTART:${icsTime(start)}`,
  `DTEND:${icsTime(end)}`,
  ...extra,
  'END:VEVENT',
];

describe('ICAL datasources', () => {
  it('are read from their document (organizer left out of attendees unless asked), never written (409)', async () => {
    remote.routes['/team.ics'] = {
      headers: { 'content-type': 'text/calendar' },
      body: ics([
        ...vevent('board@example.com', at(1), at(2), [
          'SUMMARY:Board meeting',
          'ORGANIZER;CN=Alice:mailto:alice@example.com',
          'ATTENDEE;CN=Alice;PARTSTAT=ACCEPTED:mailto:alice@example.com',
          'ATTENDEE;CN=Bob;PARTSTAT=TENTATIVE:mailto:bob@example.com',
        ]),
        ...vevent('dropped@example.com', at(3), at(4), ['SUMMARY:Dropped', 'STATUS:CANCELLED']),
      ]),
    };
    const id = await datasource({
      sourceType: 'EXTERNAL',
      type: 'ICAL',
      remoteUrl: remote.url('/team.ics'),
      timeZone: 'Asia/Kolkata',
    });
    const refreshed = await t.request('POST', `/api/datasource/refresh/${id}?sync=true`, { token: editor });
    expect(refreshed.body.errorCounter, JSON.stringify(refreshed.body)).toBe(0);

    const read = await list({ datasourceId: id, from: at(0), to: at(5) }, viewer);
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    expect(read.body).toEqual([
      expect.objectContaining({
        title: 'Board meeting',
        organizer: 'Alice',
        status: 'CONFIRMED',
        start: { timeStamp: at(1), dateTime: expect.stringMatching(/\+05:30$/) },
        attendees: [{ name: 'Bob', status: 'TENTATIVE' }],
      }),
    ]);
    const unfiltered = await list({ datasourceId: id, from: at(0), to: at(5), filterOrganizerFromAttendees: false }, viewer);
    expect(unfiltered.body[0].attendees.map((a: { name: string }) => a.name)).toEqual(['Alice', 'Bob']);

    const write = await create({ datasourceId: id, start: at(5), end: at(6), title: 'Mine' }, editor);
    expect(write.status).toBe(409);
    expect(write.body.key).toBe('calendarEvent.error.readOnly');
    const change = await patch(read.body[0].id, 'extend', { datasourceId: id, duration: 10 }, editor);
    expect(change.status).toBe(409);
    expect(change.body.key).toBe('calendarEvent.error.readOnly');
    // Not open to displays: without credentials it is not there.
    expect((await list({ datasourceId: id, from: at(0), to: at(5) })).status).toBe(404);
  });
});

describe('bad input (400, readable)', () => {
  it.each([
    ['to before from', 'GET', { from: at(2), to: at(1) }, 'to must be after from'],
    ['a window over 366 days', 'GET', { from: at(0), to: at(0) + 367 * DAY }, 'at most 366 days'],
    ['a missing window', 'GET', {}, 'from'],
    ['end before start', 'POST', { start: at(2), end: at(1), title: 'X' }, 'end must be after start'],
    ['an event over 366 days', 'POST', { start: at(0), end: at(0) + 367 * DAY, title: 'X' }, 'at most 366 days'],
    ['a blank title', 'POST', { start: at(0), end: at(1), title: '   ' }, 'title'],
    ['a title over 1 000 characters', 'POST', { start: at(0), end: at(1), title: 'x'.repeat(1_001) }, 'title'],
    ['a NUL character', 'POST', { start: at(0), end: at(1), title: 'a\u0000b' }, ''],
    ['a negative instant', 'POST', { start: -1, end: at(1), title: 'X' }, 'start'],
  ])('%s', async (_name, method, params, words) => {
    const id = await room();
    const send = method === 'GET' ? list : create;
    const res = await send({ datasourceId: id, ...params });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.message).toEqual(expect.stringContaining(words));
  });

  it.each([
    ['suspend', { duration: 0 }],
    ['extend', { duration: -5 }],
    ['extend', { duration: 7 * 24 * 60 + 1 }],
    ['extend', { duration: 'soon' }],
    ['end', { endDate: 'tomorrow' }],
    ['start', { startedBy: 'x'.repeat(256) }],
  ])('%s with %j', async (action, params) => {
    const id = await room();
    const event = await created(id, at(1), at(2), 'Target');
    const res = await patch(event.id, action, { datasourceId: id, ...params });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.message).toEqual(expect.any(String));
  });

  it('refuses ids that are no UUIDs', async () => {
    expect((await list({ datasourceId: 'room-1', from: at(0), to: at(1) })).status).toBe(400);
    const id = await room();
    expect((await patch('not-an-id', 'cancel', { datasourceId: id })).status).toBe(400);
  });
});
