import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaignsTestKit, type CampaignsTestKit } from '@/server/modules/campaigns/campaigns.test-kit';
import { devices } from '@/server/modules/devices/devices.table';
import type { TestContext } from '@/server/test/harness';
import { asDevice, newDevice, type TestDevice } from './display.test-kit';
import { manifestEtagStoreOf } from './manifest-etag-store';

/*
 * `If-None-Match` on the manifest is answered from the device's stored ETag (issue 27 §4.7), and every change
 * that tells the device `manifestChanged` drops it: the next manifest read resolves again and answers 200.
 */

let k: CampaignsTestKit;
let t: TestContext;
let tech: string;
let lobby: { id: string; path: string[] };
let hall: { id: string; path: string[] };
let screen: TestDevice;
let poster: { id: string; name: string };
let welcome: { id: string };
let channel: Record<string, any>;
let ticker: Record<string, any>;
let news: Record<string, any>;

beforeAll(async () => {
  k = await campaignsTestKit();
  t = k.t;
  // The device WebSocket endpoint holds the device_push feed, and with it the store.
  await t.listen();
  tech = (await t.actor('TECHNICIAN', { customerId: k.customerId })).token;
  lobby = await k.own.deviceFolder('Lobby');
  hall = await k.own.deviceFolder('Hall');
  screen = await newDevice(t, { customerId: k.customerId });
  await t.db.update(devices).set({ deviceGroupId: lobby.id, groupPath: lobby.path }).where(eq(devices.id, screen.deviceId));
  poster = await k.own.file('poster.png');
  welcome = await k.own.content('Welcome');
  channel = await k.create({
    ...k.contentChannel(welcome.id, {}, [lobby.id]),
    type: 'ASSETS_STATIC',
    contentAssignment: undefined,
    contentShuffleMode: undefined,
    defaultDuration: 8,
    orderingMode: 'DEFAULT',
    fileAssignment: { assignments: [{ fileId: poster.id, weight: 1 }] },
  });
  // Plays only on screens tagged `vip`.
  await k.create(k.contentChannel(welcome.id, { name: 'VIP only', deviceTagCondition: { tags: ['vip'], operator: 'AND' } }, [lobby.id]));
  const group = (await t.request('POST', '/api/messageGroup', { token: k.approver, json: { name: 'Ticker' } })).body;
  news = (
    await t.request('POST', '/api/message', {
      token: k.approver,
      json: { version: '2.0', messageGroupId: group.id, name: 'News', type: 'CONTENT', contentId: welcome.id, defaultDuration: 4 },
    })
  ).body;
  ticker = await k.create({
    name: 'Ticker channel',
    level: 'WIDGET',
    type: 'MESSAGE_GROUP',
    version: '2.0',
    contentShuffleMode: 'SERIAL',
    messageGroupAssignment: { assignments: [{ messageGroupId: group.id }] },
    deviceGroupAssignment: { assignments: [{ deviceGroupId: lobby.id }] },
  });
});
afterAll(() => t.close());

const manifestOf = (etag?: string) =>
  t.request('GET', '/api/display/manifest', { token: screen.token, headers: etag ? { 'if-none-match': `"${etag}"` } : {} });
const search = () => `customerId=${k.customerId}&search=${encodeURIComponent(`id=${screen.deviceId}`)}`;

/** The device's current manifest ETag, read whole (so the store holds it), and answered 304 after. */
async function current(): Promise<string> {
  const res = await manifestOf();
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect((await manifestOf(res.body.etag)).status).toBe(304);

  return res.body.etag as string;
}

describe('the stored manifest ETag', () => {
  it('answers If-None-Match without resolving: a write that told no one still gets 304, until an ETag is worked out again', async () => {
    const store = manifestEtagStoreOf(t.db)!;
    expect(store.serving).toBe(true);
    const etag = await current();
    // Changed behind the service's back (no notice): the stored ETag answers, so nothing was resolved.
    await t.db
      .update(devices)
      .set({ settings: { volume: 1 } })
      .where(eq(devices.id, screen.deviceId));
    expect((await manifestOf(etag)).status).toBe(304);
    // Any full computation stores what it found: the heartbeat's ETag is the new one, and so is the next answer.
    const heartbeat = await asDevice(t, screen.token)('POST', '/api/display/heartbeat', {});
    expect(heartbeat.body.manifestEtag).not.toBe(etag);
    const after = await manifestOf(etag);
    expect(after.status).toBe(200);
    expect(after.body.etag).toBe(heartbeat.body.manifestEtag);
    expect((await manifestOf(after.body.etag)).status).toBe(304);
  });

  const changes: Array<[string, () => Promise<{ status: number; body?: unknown }>]> = [
    ['a device setting (batch command)', () => t.request('POST', `/api/v2/device/volume?${search()}&level=33`, { token: tech })],
    [
      "the device's assigned content",
      () => t.request('POST', `/api/v2/device/assignContent?${search()}&contentId=${welcome.id}`, { token: k.approver }),
    ],
    ["the device's time zone", () => t.request('PUT', `/api/device/${screen.deviceId}`, { token: tech, json: { timeZone: 'Asia/Tokyo' } })],
    [
      'its tags (a tag-conditioned campaign starts targeting it)',
      () => t.request('POST', `/api/v2/device/tags/add?${search()}`, { token: tech, json: ['vip'] }),
    ],
    [
      'a move to a folder other campaigns target',
      () =>
        t.request('POST', `/api/v2/device/move?customerId=${k.customerId}`, {
          token: tech,
          json: { deviceIds: [screen.deviceId], targetGroupId: hall.id },
        }),
    ],
    [
      'a move back',
      () =>
        t.request('POST', `/api/v2/device/move?customerId=${k.customerId}`, {
          token: tech,
          json: { deviceIds: [screen.deviceId], targetGroupId: lobby.id },
        }),
    ],
    [
      'a campaign targeting it (edited)',
      () => t.request('PUT', `/api/campaign/${channel.id}`, { token: k.approver, json: { defaultDuration: 12 } }),
    ],
    [
      'a new campaign targeting its folder',
      async () => ({ status: 201, body: await k.create(k.contentChannel(welcome.id, { name: 'Newcomer' }, [lobby.id])) }),
    ],
    ['the content it plays', () => t.request('PUT', `/api/simpleLoop/${welcome.id}`, { token: k.editor, json: { name: 'Welcome back' } })],
    ['a file it plays', () => t.request('PUT', `/api/file/${poster.id}`, { token: k.editor, json: { name: 'poster-2.png' } })],
    [
      'a message of a channel targeting it',
      () => t.request('PUT', `/api/message/${news.id}`, { token: k.approver, json: { defaultDuration: 9 } }),
    ],
    ['the channel carrying the message (deleted)', () => t.request('DELETE', `/api/campaign/${ticker.id}`, { token: k.approver })],
  ];

  it.each(changes)('is dropped by %s: the old ETag then gets 200 and the new one', async (_name, change) => {
    const etag = await current();
    const res = await change();
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    const after = await manifestOf(etag);
    expect(after.status, 'answered 304 from a stale ETag').toBe(200);
    expect(after.body.etag).not.toBe(etag);
    expect((await manifestOf(after.body.etag)).status).toBe(304);
  });
});
