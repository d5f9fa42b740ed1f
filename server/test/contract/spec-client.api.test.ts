import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createTestContext, TEST_CLIENT_SECRET, TEST_PASSWORD, type TestContext } from '@/server/test/harness';
import { png } from '@/server/modules/uploads/uploads.test-kit';

/*
 * A client written from the spec documents alone (issue 27 §5): it knows the paths, the bodies and the answers
 * the spec and DECISIONS.md write, nothing of this code base, and talks to the service over HTTP like any
 * other client. It runs the whole signage loop — media, a slide in the spec's keyed `Default` page form, a
 * playlist, a channel with its assignments, a screen registered and claimed, its manifest, proof of play with
 * a widget, and the reports — and checks each answer in the spec's shape. Only the tenant and its owner are
 * seeded (the spec has no sign-up).
 */

type Json = Record<string, any>;

/** The spec client: a base URL, a bearer token, JSON in and out (spec 1 "Authentication", DECISIONS §3). */
class SpecClient {
  constructor(
    readonly base: string,
    private token?: string,
  ) {}

  static basic(user: string, secret: string) {
    return `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`;
  }

  /** POST /oauth/token, form-encoded, with the client's Basic credentials (spec 1, spec 4 §2). */
  async oauthToken(form: Record<string, string>, basic: string): Promise<Json> {
    const res = await fetch(`${this.base}/oauth/token`, {
      method: 'POST',
      headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form),
    });
    const body = (await res.json()) as Json;
    if (res.status !== 200) throw new Error(`token: ${res.status} ${JSON.stringify(body)}`);

    return body;
  }

  withToken(token: string) {
    return new SpecClient(this.base, token);
  }

  async call(method: string, path: string, options: { json?: unknown; body?: BodyInit; headers?: Record<string, string> } = {}) {
    const headers: Record<string, string> = { ...options.headers };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    if (options.json !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers,
      body: options.json !== undefined ? JSON.stringify(options.json) : options.body,
    });
    const text = await res.text();
    let body: any = text;
    if ((res.headers.get('content-type') ?? '').includes('json') && text) body = JSON.parse(text);

    return { status: res.status, headers: res.headers, body };
  }

  /** Asserts a status and answers the body (the error body in the message when it differs). */
  async expect(status: number, method: string, path: string, options?: Parameters<SpecClient['call']>[2]) {
    const res = await this.call(method, path, options);
    expect(res.status, `${method} ${path}: ${typeof res.body === 'string' ? res.body : JSON.stringify(res.body)}`).toBe(status);

    return res.body;
  }
}

let t: TestContext;
let client: SpecClient;
let ownerEmail: string;
afterAll(() => t?.close());
beforeAll(async () => {
  t = await createTestContext();
  const customer = await t.factories.customer({ name: `Spec client ${randomUUID().slice(0, 8)}` });
  ownerEmail = (await t.factories.user({ role: 'OWNER', customerId: customer.id })).email;
  client = new SpecClient(await t.listen());
});

describe('a client written from the spec', () => {
  it('runs the signage loop through the API with the spec shapes', async () => {
    // Spec 1: the password grant of the default client.
    const signedIn = await client.oauthToken(
      { grant_type: 'password', username: ownerEmail, password: TEST_PASSWORD },
      SpecClient.basic('default-client', TEST_CLIENT_SECRET),
    );
    expect(signedIn).toMatchObject({ token_type: 'bearer', access_token: expect.any(String), customer_id: expect.any(Number) });
    const api = client.withToken(signedIn.access_token);

    // Spec 2 "Files": a simple multipart upload answers an array of file objects.
    const form = new FormData();
    form.append('files', new Blob([new Uint8Array(png(64, 36, 4_000))], { type: 'image/png' }), 'poster.png');
    const [poster] = (await api.expect(200, 'POST', '/api/file', { body: form })) as [Json];
    expect(poster).toMatchObject({ id: expect.any(String), name: 'poster.png' });

    // Content folders: the root (parentId null), where content is created (spec 2 "Content").
    const groups = await api.expect(200, 'GET', `/api/v2/contentGroup?search=${encodeURIComponent('parentId=NULL')}`);
    const rootGroupId = groups.content[0].id as string;

    // A slide exactly as spec 2 and DECISIONS §2 write its data: a `Default` page keyed by name.
    const slideData = { Default: { tags: [], pageStyle: {}, pageData: { screenSize: { width: 1920, height: 1080 } } } };
    const slide = await api.expect(201, 'POST', `/api/content/?contentGroupId=${rootGroupId}`, {
      json: { name: 'Welcome', structureType: 'SLIDE', data: slideData },
    });
    expect(slide).toMatchObject({ id: expect.any(String), name: 'Welcome', structureType: 'SLIDE' });
    const slideRead = await api.expect(
      200,
      'GET',
      `/api/v2/deviceContent?search=${encodeURIComponent(`id=${slide.id}`)}&select=${encodeURIComponent('name,data')}`,
    );
    expect(slideRead.content[0].data).toEqual(slideData);

    // Interactive content: one key per page, in play order, sent and answered in that order.
    const pages = {
      Start: { tags: ['intro'], pageStyle: {}, pageData: { screenSize: { width: 1920, height: 1080 } } },
      Menu: { tags: [], pageStyle: {}, pageData: { screenSize: { width: 1920, height: 1080 } } },
      About: { tags: [], pageStyle: {}, pageData: { screenSize: { width: 1920, height: 1080 } } },
    };
    const interactive = await api.expect(201, 'POST', `/api/content/?contentGroupId=${rootGroupId}`, {
      json: { name: 'Kiosk', structureType: 'COMPLEX', data: pages },
    });
    const interactiveRead = await api.expect(
      200,
      'GET',
      `/api/v2/deviceContent?search=${encodeURIComponent(`id=${interactive.id}`)}&select=data`,
    );
    expect(Object.keys(interactiveRead.content[0].data)).toEqual(['Start', 'Menu', 'About']);
    expect(interactiveRead.content[0].data).toEqual(pages);

    // A playlist (spec 2: version 2.0, `loopData` and `slides`) playing the poster and the slide.
    const playlist = await api.expect(201, 'POST', `/api/simpleLoop/?contentGroupId=${rootGroupId}`, {
      json: {
        name: 'Lobby loop',
        simpleLoopType: 'NORMAL',
        version: '2.0',
        data: {
          loopData: {
            orientation: 'LANDSCAPE',
            resolution: { width: 1920, height: 1080 },
            defaultImageFit: 'contain',
            defaultVideoFit: 'contain',
          },
          slides: [
            { key: 'poster', type: 'FILE', id: poster.id, durationMs: 5_000 },
            { key: 'welcome', type: 'CONTENT', id: slide.id },
          ],
        },
      },
    });

    // A screen (spec 4 §1–§2): registers, is claimed by its code, gets its own token.
    const registered = await client.expect(201, 'POST', '/public-api/display/register', {
      json: { type: 'SCREEN', platform: 'BROWSER', version: 'spec-client-1.0', timeZone: 'Europe/Berlin' },
    });
    expect(registered).toMatchObject({
      deviceId: expect.any(String),
      deviceSecret: expect.any(String),
      activationCode: expect.stringMatching(/^\d{4}$/),
    });
    const claimed = await api.expect(200, 'POST', '/api/v2/device/assignToCustomer', {
      json: {
        activationCode: registered.activationCode,
        deviceName: 'Lobby screen',
        licenseStatus: 'UN_LICENSED',
        timeZone: 'Europe/Berlin',
      },
    });
    expect(claimed).toMatchObject({ id: registered.deviceId, name: 'Lobby screen' });
    const deviceToken = await client.oauthToken(
      { grant_type: 'client_credentials' },
      SpecClient.basic(registered.deviceId, registered.deviceSecret),
    );
    expect(deviceToken).toMatchObject({ token_type: 'bearer', expires_in: 3600, scope: 'device' });
    const screen = client.withToken(deviceToken.access_token);

    // A channel (spec 2 "Campaign"): level WIDGET, type CONTENT, its content and device assignments.
    const devices = await api.expect(200, 'GET', `/api/v2/deviceGroup?search=${encodeURIComponent('parentId=NULL')}`);
    const channel = await api.expect(201, 'POST', '/api/campaign', {
      json: {
        name: 'Lobby channel',
        level: 'WIDGET',
        type: 'CONTENT',
        version: '2.0',
        contentShuffleMode: 'SERIAL',
        contentAssignment: { assignments: [{ contentId: playlist.id, weight: 1 }] },
        deviceGroupAssignment: { assignments: [{ deviceGroupId: devices.content[0].id }] },
      },
    });
    expect(channel).toMatchObject({ id: expect.any(Number), name: 'Lobby channel', level: 'WIDGET', type: 'CONTENT' });
    const campaigns = await api.expect(
      200,
      'GET',
      `/api/v2/campaign?search=${encodeURIComponent(`id=${channel.id}`)}&select=${encodeURIComponent('name,contentAssignments,deviceGroupAssignments')}`,
    );
    expect(campaigns.content[0].contentAssignments).toEqual([expect.objectContaining({ id: playlist.id, name: 'Lobby loop' })]);

    // Spec 4 §4: the manifest plays the channel; contents carry the slide's data in its keyed form; files load.
    const manifestRes = await screen.call('GET', '/api/display/manifest');
    expect(manifestRes.status).toBe(200);
    const manifest = manifestRes.body as Json;
    const etag = manifestRes.headers.get('etag');
    expect(etag).toBeTruthy();
    const channelPlay = (manifest.segments as Json[]).flatMap((s) => s.channels as Json[]).find((c) => c.campaignId === channel.id);
    expect(channelPlay?.items).toEqual([expect.objectContaining({ type: 'CONTENT', id: playlist.id })]);
    expect(manifest.contents[slide.id]).toMatchObject({
      id: slide.id,
      deviceContentType: 'content',
      structureType: 'SLIDE',
      data: slideData,
    });
    const fileRes = await fetch(manifest.files[poster.id].url.replace(/^https?:\/\/[^/]+/, client.base));
    expect(fileRes.status).toBe(200);
    expect((await screen.call('GET', '/api/display/manifest', { headers: { 'if-none-match': etag! } })).status).toBe(304);

    // Spec 4 §5: plays, one inside a slide widget, reported twice: counted once.
    const now = Date.now();
    const plays = [
      {
        eventId: randomUUID(),
        startedAt: now - 60_000,
        endedAt: now - 55_000,
        completed: true,
        campaignId: channel.id,
        contentId: playlist.id,
        fileId: poster.id,
      },
      {
        eventId: randomUUID(),
        startedAt: now - 55_000,
        endedAt: now - 45_000,
        completed: true,
        campaignId: channel.id,
        contentId: slide.id,
        pageId: 'Default',
        widgetKey: 'hero',
      },
    ];
    expect(await screen.expect(202, 'POST', '/api/display/proofOfPlay', { json: plays })).toEqual({
      accepted: 2,
      duplicates: 0,
      rejected: [],
    });
    expect(await screen.expect(202, 'POST', '/api/display/proofOfPlay', { json: plays })).toEqual({
      accepted: 0,
      duplicates: 2,
      rejected: [],
    });

    // Spec 3 "Reporting": the channel's plays in total, by widget (the play without one is the whole page).
    const customerId = signedIn.customer_id as number;
    const query = (groupBy: string) =>
      `customerId=${customerId}&from=${now - 3_600_000}&to=${now + 60_000}&timeZone=Europe%2FBerlin&resolution=TOTAL&groupBy=${groupBy}`;
    const byCampaign = await api.expect(200, 'GET', `/api/v2/proof-of-display/campaign/${channel.id}?${query('CAMPAIGN')}`);
    expect(byCampaign).toMatchObject({ resolution: 'TOTAL', groupBy: 'CAMPAIGN', timeZone: 'Europe/Berlin' });
    expect(byCampaign.rows).toEqual([
      expect.objectContaining({
        groupBy: { type: 'CAMPAIGN', id: channel.id, name: 'Lobby channel' },
        impressionStartCount: 2,
        impressionEndCount: 2,
        duration: 15_000,
      }),
    ]);
    const byWidget = await api.expect(200, 'GET', `/api/v2/proof-of-display/campaign/${channel.id}?${query('WIDGET')}`);
    expect(byWidget.rows.map((r: Json) => [r.groupBy.name, r.impressionStartCount]).sort()).toEqual([
      ['(whole page)', 1],
      ['hero', 1],
    ]);
    const csv = await api.call('GET', `/api/v2/proof-of-display/campaign/${channel.id}/csv?${query('CAMPAIGN')}`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(String(csv.body).split(/\r?\n/).filter(Boolean)).toHaveLength(2);
  });
});
