import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import { auditLog } from '@/server/modules/audit-log/audit-log.table';
import { contentTestKit } from '@/server/modules/content/content.test-kit';
import { devicesTestKit, type DevicesTestKit } from './devices.test-kit';
import { deviceAccessTokens, devices } from './devices.table';

let k: DevicesTestKit;
let t: DevicesTestKit['t'];

beforeAll(async () => {
  k = await devicesTestKit();
  t = k.t;
});
afterAll(() => t.close());

const row = async (id: string) => (await t.db.select().from(devices).where(eq(devices.id, id)).limit(1))[0];
const names = (body: { content: Array<{ name: string }> }) => body.content.map((d) => d.name).sort();

describe('GET /api/v2/device', () => {
  it("lists the tenant's devices with their folder, searchable by folder (direct and below), tags and status", async () => {
    const lobby = await k.folder('Lobby');
    const floor = await k.folder('Floor 1', lobby);
    const a = await k.device({ name: 'Alpha', tags: ['entrance'], deviceStatus: 'ONLINE' });
    await k.device({ name: 'Bravo', tags: ['menu'] }, lobby);
    await k.device({ name: 'Charlie', tags: ['menu', 'entrance'] }, floor);
    await k.device({ name: 'Other tenant' }, k.otherRoot);
    const list = async (query: string, token = k.viewer) => t.request('GET', `/api/v2/device?size=100&${query}`, { token });

    const all = await list('search=' + encodeURIComponent('name~a'));
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    expect(names(all.body)).toEqual(expect.arrayContaining(['Alpha', 'Bravo', 'Charlie']));
    expect(names(all.body)).not.toContain('Other tenant');
    const alpha = all.body.content.find((d: { id: string }) => d.id === a.id);
    expect(alpha).toMatchObject({
      name: 'Alpha',
      customerId: k.customerId,
      deviceGroupId: k.root.id,
      deviceGroup: { id: k.root.id },
      deviceGroupPath: k.root.id,
      deviceStatus: 'ONLINE',
      type: 'SCREEN',
      licenseStatus: 'UN_LICENSED',
    });
    expect(alpha).not.toHaveProperty('deviceInfo');
    expect(names((await list(`search=${encodeURIComponent(`deviceGroupPath:${lobby.id}`)}`)).body)).toEqual(['Bravo', 'Charlie']);
    expect(names((await list(`search=${encodeURIComponent(`deviceGroupId=${lobby.id}`)}`)).body)).toEqual(['Bravo']);
    expect(names((await list(`search=${encodeURIComponent('tags:entrance')}`)).body)).toEqual(['Alpha', 'Charlie']);
    expect(names((await list(`search=${encodeURIComponent('deviceStatus=ONLINE,name~a')}`)).body)).toEqual(['Alpha']);
    expect((await list('search=' + encodeURIComponent('secretHash=x'))).status).toBe(400);
    // Another tenant's folder in the search finds nothing of it.
    expect((await list(`search=${encodeURIComponent(`deviceGroupPath:${k.otherRoot.id}`)}`)).body.content).toEqual([]);
  });

  it("reads one device with what it reports; another tenant's or a missing one is a 404", async () => {
    const d = await k.device({ name: 'Info', deviceInfo: { os: 'Linux', ram: 4096 }, timeZone: 'Europe/Berlin' });
    const res = await t.request('GET', `/api/v2/device/${d.id}`, { token: k.viewer });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: d.id, name: 'Info', deviceInfo: { os: 'Linux', ram: 4096 }, timeZone: 'Europe/Berlin' });
    expect(res.body).not.toHaveProperty('secretHash');
    expect((await t.request('GET', `/api/v2/device/${d.id}?select=name`, { token: k.viewer })).body).toEqual({
      id: d.id,
      name: 'Info',
      readOnly: false,
    });
    expect((await t.request('GET', `/api/v2/device/${d.id}`, { token: k.otherTechnician })).status).toBe(404);
    expect((await t.request('GET', `/api/v2/device/${uuidv7()}`, { token: k.viewer })).status).toBe(404);
  });

  it('lets an administrator list the unclaimed devices with customerId=null, and nobody else', async () => {
    const unclaimed = await k.device({ name: 'Unclaimed', activationCode: '4821' }, null);
    const res = await t.request('GET', '/api/v2/device?customerId=null&size=1000', { token: k.admin });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.content.every((d: { customerId?: number }) => d.customerId === undefined)).toBe(true);
    expect(res.body.content.find((d: { id: string }) => d.id === unclaimed.id)).toMatchObject({ activationCode: '4821' });
    expect((await t.request('GET', '/api/v2/device?customerId=null', { token: k.owner })).status).toBe(403);
    // A tenant never sees an unclaimed device, not even by id.
    expect((await t.request('GET', `/api/v2/device/${unclaimed.id}`, { token: k.owner })).status).toBe(404);
    // ...and nothing is written into "no tenant".
    expect((await t.request('POST', '/api/v2/device/tags/add?customerId=null', { token: k.admin, json: ['x'] })).status).toBe(400);
  });

  it('filters by a DEVICE quick filter, ANDed with the search', async () => {
    const hall = await k.folder('Hall');
    await k.device({ name: 'Hall east', tags: ['promo'] }, hall);
    await k.device({ name: 'Hall west' }, hall);
    await k.device({ name: 'Elsewhere promo', tags: ['promo'] });
    const qf = await t.request('POST', '/api/quickFilter/', {
      token: k.technician,
      json: { name: 'Hall promo', filteredEntityType: 'DEVICE', criteria: { type: 'DEVICE', tags: ['promo'], deviceGroupId: hall.id } },
    });
    expect(qf.status, JSON.stringify(qf.body)).toBe(201);
    const list = await t.request('GET', `/api/v2/device?size=100&quickFilterId=${qf.body.id}`, { token: k.viewer });
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(names(list.body)).toEqual(['Hall east']);
    expect((await t.request('GET', `/api/v2/device?quickFilterId=${qf.body.id}`, { token: k.otherTechnician })).status).toBe(404);
  });
});

describe('PUT /api/device/{id}', () => {
  it('lets a technician rename it, change the comment and the time zone, with an audit entry', async () => {
    const d = await k.device({ name: 'Before' });
    const res = await t.request('PUT', `/api/device/${d.id}`, {
      token: k.technician,
      json: { name: 'After', comment: 'By the door', timeZone: 'America/New_York' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ name: 'After', comment: 'By the door', timeZone: 'America/New_York' });
    // null keeps, "" clears the comment.
    expect((await t.request('PUT', `/api/device/${d.id}`, { token: k.technician, json: { name: null, comment: '' } })).body).toMatchObject({
      name: 'After',
    });
    expect((await row(d.id))?.comment).toBeNull();
    const [entry] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, d.id), eq(auditLog.action, 'update')));
    expect(entry?.message).toBe("Device 'After' updated");
  });

  it("refuses a bad time zone or name (400), an editor (403), another tenant's or an unclaimed device (404)", async () => {
    const d = await k.device();
    expect((await t.request('PUT', `/api/device/${d.id}`, { token: k.technician, json: { timeZone: 'Mars/Olympus' } })).status).toBe(400);
    expect((await t.request('PUT', `/api/device/${d.id}`, { token: k.technician, json: { name: ' ' } })).status).toBe(400);
    expect((await t.request('PUT', `/api/device/${d.id}`, { token: k.editor, json: { name: 'x' } })).status).toBe(403);
    expect((await t.request('PUT', `/api/device/${d.id}`, { token: k.otherTechnician, json: { name: 'x' } })).status).toBe(404);
    const unclaimed = await k.device({}, null);
    expect((await t.request('PUT', `/api/device/${unclaimed.id}`, { token: k.admin, json: { name: 'x' } })).status).toBe(404);
  });
});

describe('DELETE /api/device/{id}', () => {
  it('deletes the device and its tokens at once; a second delete is a 404', async () => {
    const d = await k.device({ name: 'Doomed' });
    await t.db.insert(deviceAccessTokens).values({ tokenHash: `h-${d.id}`, deviceId: d.id, expiresAt: new Date(Date.now() + 3_600_000) });
    expect((await t.request('DELETE', `/api/device/${d.id}`, { token: k.approver })).status).toBe(403);
    expect((await t.request('DELETE', `/api/device/${d.id}`, { token: k.otherTechnician })).status).toBe(404);
    expect((await t.request('DELETE', `/api/device/${d.id}`, { token: k.technician })).status).toBe(204);
    expect(await row(d.id)).toBeUndefined();
    expect(await t.db.select().from(deviceAccessTokens).where(eq(deviceAccessTokens.deviceId, d.id))).toEqual([]);
    expect((await t.request('DELETE', `/api/device/${d.id}`, { token: k.technician })).status).toBe(404);
  });
});

describe('POST /api/v2/device/move', () => {
  it('moves devices into a folder in one go; the folder path search follows', async () => {
    const target = await k.folder('Target');
    const wall = await k.folder('Wall', k.root, 'VIDEO_WALL');
    const [a, b] = [await k.device({ name: 'Move A' }), await k.device({ name: 'Move B' })];
    const res = await t.request('POST', '/api/v2/device/move', {
      token: k.technician,
      json: { deviceIds: [a.id, b.id, a.id], targetGroupId: target.id },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(204);
    expect(await row(a.id)).toMatchObject({ deviceGroupId: target.id, groupPath: target.path });
    const listed = await t.request('GET', `/api/v2/device?search=${encodeURIComponent(`deviceGroupPath:${target.id}`)}`, {
      token: k.viewer,
    });
    expect(names(listed.body)).toEqual(['Move A', 'Move B']);
    // A video-wall folder holds devices.
    expect(
      (await t.request('POST', '/api/v2/device/move', { token: k.technician, json: { deviceIds: [b.id], targetGroupId: wall.id } })).status,
    ).toBe(204);
    expect((await row(b.id))?.deviceGroupId).toBe(wall.id);
  });

  it("moves nothing when one id is another tenant's device or the folder is another tenant's (404), and refuses bad bodies", async () => {
    const target = await k.folder('Guarded');
    const mine = await k.device({ name: 'Mine' });
    const theirs = await k.device({ name: 'Theirs' }, k.otherRoot);
    expect(
      (
        await t.request('POST', '/api/v2/device/move', {
          token: k.technician,
          json: { deviceIds: [mine.id, theirs.id], targetGroupId: target.id },
        })
      ).status,
    ).toBe(404);
    expect((await row(mine.id))?.deviceGroupId).toBe(k.root.id);
    expect(
      (
        await t.request('POST', '/api/v2/device/move', {
          token: k.technician,
          json: { deviceIds: [mine.id], targetGroupId: k.otherRoot.id },
        })
      ).status,
    ).toBe(404);
    expect(
      (await t.request('POST', '/api/v2/device/move', { token: k.technician, json: { deviceIds: [], targetGroupId: target.id } })).status,
    ).toBe(400);
    expect(
      (await t.request('POST', '/api/v2/device/move', { token: k.editor, json: { deviceIds: [mine.id], targetGroupId: target.id } }))
        .status,
    ).toBe(403);
  });
});

describe('POST /api/v2/device/tags/{add,set,remove}', () => {
  it('changes the tags of the matching devices of the named tenant only, and counts them', async () => {
    const group = await k.folder('Tagged');
    const [a, b] = [await k.device({ name: 'Tag A', tags: ['old'] }, group), await k.device({ name: 'Tag B' }, group)];
    const theirs = await k.device({ name: 'Tag theirs' }, k.otherRoot);
    const search = encodeURIComponent(`deviceGroupId=${group.id}`);
    const add = await t.request('POST', `/api/v2/device/tags/add?customerId=${k.customerId}&search=${search}`, {
      token: k.technician,
      json: ['Lobby', 'old'],
    });
    expect(add.status, JSON.stringify(add.body)).toBe(200);
    expect(add.body).toEqual({ updated: 2 });
    expect((await row(a.id))?.tags).toEqual(['old', 'Lobby']);
    expect((await row(b.id))?.tags).toEqual(['Lobby', 'old']);
    expect(
      (
        await t.request('POST', `/api/v2/device/tags/remove?customerId=${k.customerId}&search=${search}`, {
          token: k.technician,
          json: ['old'],
        })
      ).body,
    ).toEqual({ updated: 2 });
    expect(
      (await t.request('POST', `/api/v2/device/tags/set?customerId=${k.customerId}&applyOn=ALL`, { token: k.technician, json: ['all'] }))
        .status,
    ).toBe(200);
    expect((await row(b.id))?.tags).toEqual(['all']);
    expect((await row(theirs.id))?.tags).toEqual([]);
    // The tag is known to the tenant's tag list.
    const tagList = await t.request('GET', '/api/tag?select=deviceTags', { token: k.viewer });
    expect(tagList.status, JSON.stringify(tagList.body)).toBe(200);
    expect(JSON.stringify(tagList.body)).toContain('Lobby');
  });

  it('applyOn=DEVICEGROUP: the search selects device folders; every device in a matching folder or below it is changed', async () => {
    const wall = await k.folder('Batch wall', k.root, 'VIDEO_WALL');
    const hall = await k.folder('Batch hall');
    const floor = await k.folder('Batch floor', hall);
    const [inHall, onFloor, inWall, elsewhere] = [
      await k.device({ name: 'In hall' }, hall),
      await k.device({ name: 'On floor' }, floor),
      await k.device({ name: 'In wall' }, wall),
      await k.device({ name: 'Elsewhere' }),
    ];
    const theirFolder = await k.folder('Batch hall', k.otherRoot);
    const theirs = await k.device({ name: 'Their hall' }, theirFolder);
    const batch = (search: string, tags: string[], token = k.technician) =>
      t.request('POST', `/api/v2/device/tags/add?customerId=${k.customerId}&applyOn=DEVICEGROUP&search=${encodeURIComponent(search)}`, {
        token,
        json: tags,
      });
    const res = await batch('name=Batch hall', ['hall']);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ updated: 2 });
    expect((await row(inHall.id))?.tags).toEqual(['hall']);
    expect((await row(onFloor.id))?.tags).toEqual(['hall']);
    for (const d of [inWall, elsewhere, theirs]) expect((await row(d.id))?.tags).toEqual([]);
    // Several folders (OR); a folder search that matches nothing changes nothing.
    expect((await batch(`id=${wall.id}|id=${floor.id}`, ['wall'])).body).toEqual({ updated: 2 });
    expect((await row(inWall.id))?.tags).toEqual(['wall']);
    expect((await batch('name=No such folder', ['none'])).body).toEqual({ updated: 0 });
    // Another tenant's folder id matches nothing; a device field is not a folder field (400).
    expect((await batch(`id=${theirFolder.id}`, ['x'])).body).toEqual({ updated: 0 });
    expect((await batch('deviceStatus=ONLINE', ['x'])).status).toBe(400);
    // The root matches every device of the tenant.
    const tenantDevices = await t.db.select().from(devices).where(eq(devices.customerId, k.customerId));
    expect((await batch('parentId=NULL', ['everyone'])).body).toEqual({ updated: tenantDevices.length });
    expect((await row(theirs.id))?.tags).toEqual([]);
  });

  it('requires the tenant, the role, and a valid search', async () => {
    expect((await t.request('POST', '/api/v2/device/tags/add', { token: k.technician, json: ['x'] })).status).toBe(400);
    expect((await t.request('POST', `/api/v2/device/tags/add?customerId=${k.customerId}`, { token: k.editor, json: ['x'] })).status).toBe(
      403,
    );
    expect(
      (await t.request('POST', `/api/v2/device/tags/add?customerId=${k.otherCustomerId}`, { token: k.technician, json: ['x'] })).status,
    ).toBe(403);
    expect(
      (
        await t.request('POST', `/api/v2/device/tags/add?customerId=${k.customerId}&search=${encodeURIComponent('name:(')}`, {
          token: k.technician,
          json: ['x'],
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await t.request('POST', `/api/v2/device/tags/add?customerId=${k.customerId}&applyOn=SOMETHING`, {
          token: k.technician,
          json: ['x'],
        })
      ).status,
    ).toBe(400);
  });
});

describe('content shown on screens', () => {
  it('counts the devices that show a content item as assigned or emergency content', async () => {
    const c = await contentTestKit();
    try {
      const slide = await c.createSlide('On screens');
      const root = (
        await c.t.db
          .select()
          .from((await import('@/server/modules/folders/folders.table')).deviceGroups)
          .where(eq((await import('@/server/modules/folders/folders.table')).deviceGroups.customerId, c.customerId))
      )[0]!;
      const { insertDevice } = await import('./devices.queries');
      const { hashToken } = await import('@/server/auth/opaque-token');
      for (const values of [{ contentId: slide.id }, { emergencyContentId: slide.id, deviceStatus: 'ONLINE' as const }]) {
        await insertDevice(c.t.db, {
          id: uuidv7(),
          customerId: c.customerId,
          deviceGroupId: root.id,
          groupPath: root.path,
          name: 'S',
          secretHash: hashToken(uuidv7()),
          ...values,
        });
      }
      const res = await c.t.request('GET', `/api/v2/deviceContent/${slide.id}?select=assignedDeviceCount`, { token: c.editor });
      expect(res.body.assignedDeviceCount).toBe(2);
      const ratio = await c.t.request('GET', `/api/content/getDeviceOnlineOfflineRatio?search=${encodeURIComponent(`id=${slide.id}`)}`, {
        token: c.editor,
      });
      expect(ratio.status, JSON.stringify(ratio.body)).toBe(200);
      expect(JSON.stringify(ratio.body)).toContain('"online":1,"offline":1,"total":2');
    } finally {
      await c.t.close();
    }
  });
});

describe('previewPath', () => {
  it('names the newest screenshot by the storage URL pattern with its time, and is absent before one exists', async () => {
    const d = await k.device({ name: 'Preview' });
    expect((await t.request('GET', `/api/v2/device/${d.id}?select=previewPath`, { token: k.viewer })).body.previewPath ?? null).toBeNull();
    const at = new Date(Date.UTC(2026, 10, 25, 8, 0, 0, 123));
    await t.db.update(devices).set({ previewUpdatedAt: at }).where(eq(devices.id, d.id));
    expect((await t.request('GET', `/api/v2/device/${d.id}?select=previewPath`, { token: k.viewer })).body.previewPath).toBe(
      `/api/storage/customer/${k.customerId}/devices/${d.id}/preview.jpg?v=${at.getTime()}`,
    );
  });
});
