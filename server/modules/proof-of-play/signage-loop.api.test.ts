import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import { contentTestKit, type ContentTestKit } from '@/server/modules/content/content.test-kit';
import type { Manifest } from '@/server/modules/display/display.schemas';
import { deviceTokenRequest, register } from '@/server/modules/display/display.test-kit';
import { png, uploadRequest } from '@/server/modules/uploads/uploads.test-kit';
import type { TestContext } from '@/server/test/harness';

/*
 * The signage loop through the API alone (issue 15), on whichever database the suite runs on (PGlite, and
 * PostgreSQL in CI): media uploaded, a playlist built, a channel for a device folder, a screen registered and
 * claimed by its code into that folder, its manifest playing the playlist with a file URL that loads the bytes,
 * its proof of play accepted once, and the reports counting it. The browser side is e2e/signage-loop.spec.ts.
 */

let k: ContentTestKit;
let t: TestContext;
afterAll(() => t?.close());
beforeAll(async () => {
  k = await contentTestKit();
  t = k.t;
});

describe('the signage loop (API)', () => {
  it('uploads, builds, schedules, pairs, plays, reports', async () => {
    const imageBytes = png(64, 36, 4_000);
    const uploaded = await uploadRequest(t, k.editor, [{ field: 'files', name: 'poster.png', data: imageBytes, type: 'image/png' }]);
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
    const image = uploaded.body[0] as { id: string };
    const loop = await k.createPlaylist('Lobby loop', k.playlist([{ key: 'a', type: 'FILE', id: image.id }]));

    const roots = await t.request('GET', `/api/v2/deviceGroup?search=${encodeURIComponent('parentId=NULL')}`, { token: k.owner });
    expect(roots.status, JSON.stringify(roots.body)).toBe(200);
    const lobby = await t.request('POST', `/api/deviceGroup/${roots.body.content[0].id}`, { token: k.owner, json: { name: 'Lobby' } });
    expect(lobby.status, JSON.stringify(lobby.body)).toBeLessThan(300);
    const channel = await t.request('POST', '/api/campaign', {
      token: k.approver,
      json: {
        name: 'Lobby channel',
        level: 'WIDGET',
        type: 'CONTENT',
        version: '2.0',
        contentShuffleMode: 'SERIAL',
        contentAssignment: { assignments: [{ contentId: loop.id, weight: 1 }] },
        deviceGroupAssignment: { assignments: [{ deviceGroupId: lobby.body.id }] },
      },
    });
    expect(channel.status, JSON.stringify(channel.body)).toBe(201);

    // A screen registers, shows its code, is claimed by that code, moved into the Lobby, and gets a token.
    const registered = await register(t, { type: 'SCREEN', platform: 'BROWSER', version: 'loop-1.0', timeZone: 'Europe/Berlin' });
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    const { deviceId, deviceSecret, activationCode } = registered.body as {
      deviceId: string;
      deviceSecret: string;
      activationCode: string;
    };
    const claimed = await t.request('POST', '/api/v2/device/assignToCustomer', {
      token: k.owner,
      json: { activationCode, deviceName: 'Lobby browser', timeZone: 'Europe/Berlin', licenseStatus: 'UN_LICENSED' },
    });
    expect(claimed.status, JSON.stringify(claimed.body)).toBe(200);
    const moved = await t.request('POST', '/api/v2/device/move', {
      token: k.owner,
      json: { deviceIds: [deviceId], targetGroupId: lobby.body.id },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBeLessThan(300);
    const token = (await deviceTokenRequest(t, deviceId, deviceSecret)).body.access_token as string;

    // Its manifest plays the channel with the playlist, and the file's URL loads the uploaded bytes.
    const res = await t.request('GET', '/api/display/manifest', { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const manifest = res.body as Manifest;
    const playing = manifest.segments.flatMap((s) => s.channels).find((c) => c.campaignId === channel.body.id);
    expect(playing?.items).toEqual([expect.objectContaining({ type: 'CONTENT', id: loop.id })]);
    expect(manifest.contents[loop.id]).toMatchObject({ name: 'Lobby loop' });
    const file = manifest.files[image.id]!;
    const url = new URL(file.url);
    const bytes = await t.app.request(`${url.pathname}${url.search}`);
    expect(bytes.status).toBe(200);
    expect(Buffer.from(await bytes.arrayBuffer()).equals(imageBytes)).toBe(true);

    // It reports two plays as NDJSON, once more on a retry: counted once.
    const now = Date.now();
    const plays = [0, 1].map((i) => ({
      eventId: uuidv7(),
      startedAt: now - 60_000 + i * 10_000,
      endedAt: now - 50_000 + i * 10_000,
      completed: true,
      campaignId: channel.body.id,
      contentId: loop.id,
      fileId: image.id,
    }));
    const ndjson = plays.map((p) => JSON.stringify(p)).join('\n');
    const send = () =>
      t.app.request('/api/display/proofOfPlay', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-ndjson' },
        body: ndjson,
      });
    expect(await (await send()).json()).toMatchObject({ accepted: 2, duplicates: 0, rejected: [] });
    expect(await (await send()).json()).toMatchObject({ accepted: 0, duplicates: 2, rejected: [] });

    // The reports count them: by file for the screen, by screen for the channel, in the screen's zone.
    const query = `customerId=${k.customerId}&from=${now - 3_600_000}&to=${now + 60_000}&timeZone=Europe%2FBerlin&resolution=TOTAL`;
    const byFile = await t.request('GET', `/api/v2/proof-of-display/device/${deviceId}?${query}&groupBy=MEDIA_FILE`, { token: k.viewer });
    expect(byFile.status, JSON.stringify(byFile.body)).toBe(200);
    expect(byFile.body.rows).toEqual([
      expect.objectContaining({
        groupBy: { type: 'MEDIA_FILE', id: image.id, name: 'poster.png' },
        impressionStartCount: 2,
        impressionEndCount: 2,
        duration: 20_000,
      }),
    ]);
    const byScreen = await t.request('GET', `/api/v2/proof-of-display/campaign/${channel.body.id}?${query}&groupBy=DEVICE`, {
      token: k.viewer,
    });
    expect(byScreen.body.rows).toEqual([
      expect.objectContaining({ groupBy: { type: 'DEVICE', id: deviceId, name: 'Lobby browser' }, impressionStartCount: 2 }),
    ]);
  });
});
