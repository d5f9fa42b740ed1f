import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execRows } from '@/server/db/sql';
import { auditLog } from '@/server/modules/audit-log/audit-log.table';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { deviceAlertSources } from '@/server/modules/devices/device-alerts';
import { deviceGroupUsages } from './device-group-plugs';
import { deviceGroupTenants, type deviceGroupKit, type Group } from './device-groups.test-kit';

let t: TestContext;
let kit: ReturnType<typeof deviceGroupKit>;
let customerId: number;
let technician: string;
let approver: string;
let viewer: string;
let otherTechnician: string;
let root: Group;
let otherRoot: Group;

beforeAll(async () => {
  t = await createTestContext();
  ({ kit, customerId, technician, approver, viewer, otherTechnician, root, otherRoot } = await deviceGroupTenants(t));
});
afterAll(() => t.close());

const createOk = (parentId: string, name: string, extra: Record<string, unknown> = {}) => kit.createOk(technician, parentId, name, extra);

describe('GET /api/v2/deviceGroup and /api/v2/deviceGroup/{id}', () => {
  it('a customer starts with its root device folder, listed without a name', async () => {
    expect(root).toMatchObject({ parentId: null, path: [root.id], type: 'NORMAL' });
    const res = await t.request('GET', '/api/v2/deviceGroup?search=parentId=NULL', { token: viewer });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.content).toEqual([expect.objectContaining({ id: root.id, deviceGroupPath: root.id, type: 'NORMAL', customerId })]);
    expect(res.body.content[0].name).toBeUndefined();
  });

  it('finds a folder and everything below it through deviceGroupPath, the direct children through parentId', async () => {
    const a = await createOk(root.id, 'PathA');
    const b = await createOk(a.id, 'PathB');
    await createOk(b.id, 'PathC');
    expect(await kit.names(viewer, `search=deviceGroupPath:${a.id}`)).toEqual(['PathA', 'PathB', 'PathC']);
    expect(await kit.names(viewer, `search=parentId=${a.id}`)).toEqual(['PathB']);
    const one = await t.request('GET', `/api/v2/deviceGroup/${b.id}?select=name,deviceGroupPath`, { token: viewer });
    expect(one.body).toEqual({ id: b.id, name: 'PathB', deviceGroupPath: `${root.id}/${a.id}/${b.id}` });
  });

  it('answers alertCount and the usage fields only when selected: 0 and [] until alerts and channels plug in', async () => {
    const folder = await createOk(root.id, 'Computed');
    const plain = await t.request('GET', `/api/v2/deviceGroup/${folder.id}`, { token: viewer });
    expect(plain.status).toBe(200);
    for (const field of ['alertCount', 'campaignUsageDetails', 'topLevelCampaignUsageDetails', 'messageUsageDetails'])
      expect(plain.body[field]).toBeUndefined();
    const select = 'alertCount,campaignUsageDetails,topLevelCampaignUsageDetails,messageUsageDetails';
    const res = await t.request('GET', `/api/v2/deviceGroup/${folder.id}?select=${select}`, { token: viewer });
    expect(res.body).toEqual({
      id: folder.id,
      alertCount: 0,
      campaignUsageDetails: [],
      topLevelCampaignUsageDetails: [],
      messageUsageDetails: [],
    });
  });

  it('sums what the plug points give: alert sources and usage kinds', async () => {
    const folder = await createOk(root.id, 'Plugged');
    const sub = await createOk(folder.id, 'PluggedSub');
    await kit.insertDevice(sub);
    await kit.insertDevice(folder);
    // Stand-ins for the alerts and campaigns modules: one alert on every device, one fixed usage entry.
    const removeAlerts = deviceAlertSources.add({
      name: 'test',
      alerts: (deviceId) => sql`jsonb_build_array(jsonb_build_object('deviceId', ${deviceId}::text))`,
      countBelow: (folderId, customerId) =>
        sql`(select count(*) from device d where d.customer_id = ${customerId} and d.group_path @> array[${folderId}]::uuid[])`,
    });
    const removeUsage = deviceGroupUsages.add({
      name: 'test',
      usageField: 'campaignUsageDetails',
      usage: (id) => sql`jsonb_build_array(jsonb_build_object('id', ${id}::text))`,
    });
    try {
      const res = await t.request(
        'GET',
        `/api/v2/deviceGroup?search=deviceGroupPath:${folder.id}&select=alertCount,campaignUsageDetails,messageUsageDetails&sort=alertCount,desc`,
        { token: viewer },
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.content).toEqual([
        { id: folder.id, alertCount: 2, campaignUsageDetails: [{ id: folder.id }], messageUsageDetails: [] },
        { id: sub.id, alertCount: 1, campaignUsageDetails: [{ id: sub.id }], messageUsageDetails: [] },
      ]);
      const many = await t.request('GET', `/api/v2/deviceGroup?search=${encodeURIComponent('alertCount>1,parentId=!NULL')}&select=name`, {
        token: viewer,
      });
      expect(many.body.content).toEqual([{ id: folder.id, name: 'Plugged' }]);
    } finally {
      removeAlerts();
      removeUsage();
    }
  });

  it("never shows another tenant's folders (404, not listed)", async () => {
    expect((await t.request('GET', `/api/v2/deviceGroup/${root.id}`, { token: otherTechnician })).status).toBe(404);
    const res = await t.request('GET', '/api/v2/deviceGroup?size=100', { token: otherTechnician });
    expect((res.body.content as { id: string }[]).map((g) => g.id)).toEqual([otherRoot.id]);
  });

  it('refuses a bad select or search (400)', async () => {
    expect((await t.request('GET', `/api/v2/deviceGroup/${root.id}?select=nope`, { token: viewer })).status).toBe(400);
    expect((await t.request('GET', '/api/v2/deviceGroup?search=videoWallMetaData:x', { token: viewer })).status).toBe(400);
  });
});

describe('POST /api/deviceGroup/{parentId}', () => {
  it('creates a NORMAL folder under a parent and audits it', async () => {
    const top = await kit.create(technician, root.id, { name: 'Top' });
    expect(top.status, JSON.stringify(top.body)).toBe(201);
    expect(top.body).toMatchObject({ name: 'Top', parentId: root.id, type: 'NORMAL', deviceGroupPath: `${root.id}/${top.body.id}` });
    const sub = await kit.create(technician, top.body.id, { name: 'Sub' });
    expect(sub.body).toMatchObject({ parentId: top.body.id, deviceGroupPath: `${root.id}/${top.body.id}/${sub.body.id}` });
    const [entry] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'deviceGroup'), eq(auditLog.entityId, sub.body.id)));
    expect(entry).toMatchObject({ action: 'create', customerId, entityName: 'Sub', message: "Device folder 'Sub' created in 'Top'" });
  });

  it('creates a video wall with its data; it holds devices only (409 for a folder in it)', async () => {
    const wall = await kit.create(technician, root.id, { name: 'Wall', type: 'VIDEO_WALL', videoWallMetaData: { rows: 2, columns: 3 } });
    expect(wall.status, JSON.stringify(wall.body)).toBe(201);
    expect(wall.body).toMatchObject({ type: 'VIDEO_WALL', videoWallMetaData: { rows: 2, columns: 3 } });
    const inside = await kit.create(technician, wall.body.id, { name: 'Inside' });
    expect(inside.status).toBe(409);
    expect(inside.body.key).toBe('deviceGroup.error.videoWall');
  });

  it('takes videoWallMetaData only for a video wall (409)', async () => {
    const res = await kit.create(technician, root.id, { name: 'NotAWall', videoWallMetaData: { rows: 1 } });
    expect(res.status).toBe(409);
    expect(res.body.key).toBe('deviceGroup.error.notVideoWall');
  });

  it('validates the body (400) and needs TECHNICIAN (403)', async () => {
    for (const body of [
      { name: '   ' },
      { name: 'x'.repeat(256) },
      { name: 'x', type: 'HUGE' },
      { name: 'x', videoWallMetaData: 'text' },
      {},
    ]) {
      expect((await kit.create(technician, root.id, body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await t.request('POST', '/api/deviceGroup/not-a-uuid', { token: technician, json: { name: 'x' } })).status).toBe(400);
    expect((await kit.create(approver, root.id, { name: 'ByApprover' })).status).toBe(403);
  });

  it("refuses another tenant's parent (404)", async () => {
    expect((await kit.create(technician, otherRoot.id, { name: 'Intruder' })).status).toBe(404);
  });
});

describe('PUT /api/deviceGroup/{id}', () => {
  it('renames a folder and audits it', async () => {
    const folder = await createOk(root.id, 'OldName');
    const res = await t.request('PUT', `/api/deviceGroup/${folder.id}`, { token: technician, json: { name: 'NewName' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: folder.id, name: 'NewName' });
    const [entry] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, folder.id), eq(auditLog.action, 'rename')));
    expect(entry?.message).toBe("Device folder 'OldName' renamed to 'NewName'");
  });

  it('replaces the tags, registers them as DEVICE tags, and refuses invalid ones (400)', async () => {
    const folder = await createOk(root.id, 'Tagged');
    const res = await t.request('PUT', `/api/deviceGroup/${folder.id}`, {
      token: technician,
      json: { tags: ['lobby', 'floor.1', 'lobby'] },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.tags).toEqual(['lobby', 'floor.1']);
    expect((await kit.groupRow(folder.id))!.name).toBe('Tagged');
    const tags = await t.request('GET', '/api/tag?select=deviceTags', { token: viewer });
    expect(tags.body.deviceTags).toMatchObject({ lobby: { count: 1 }, 'floor.1': { count: 1 } });
    expect((await t.request('GET', `/api/v2/deviceGroup?search=tags:lobby&select=name`, { token: viewer })).body.content).toEqual([
      { id: folder.id, name: 'Tagged' },
    ]);
    const bad = await t.request('PUT', `/api/deviceGroup/${folder.id}`, { token: technician, json: { tags: ['-bad'] } });
    expect(bad.status).toBe(400);
    // The tag syntax is the body schema's pattern (issue 27 §3.3).
    expect(bad.body).toMatchObject({ key: 'request.error.invalid', details: { issues: [expect.objectContaining({ path: 'tags.0' })] } });
    const cleared = await t.request('PUT', `/api/deviceGroup/${folder.id}`, { token: technician, json: { tags: [] } });
    expect(cleared.body.tags).toEqual([]);
    expect((await kit.groupRow(folder.id))!.tags).toEqual([]);
  });

  it("sets and clears a video wall's data; refuses it on a normal folder and any change of type (409)", async () => {
    const wall = await createOk(root.id, 'EditWall', { type: 'VIDEO_WALL' });
    const set = await t.request('PUT', `/api/deviceGroup/${wall.id}`, {
      token: technician,
      json: { videoWallMetaData: { layout: [[1, 2]] }, type: 'VIDEO_WALL' },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.videoWallMetaData).toEqual({ layout: [[1, 2]] });
    const cleared = await t.request('PUT', `/api/deviceGroup/${wall.id}`, { token: technician, json: { videoWallMetaData: '' } });
    expect(cleared.status).toBe(200);
    expect((await kit.groupRow(wall.id))!.videoWallMetaData).toBeNull();
    const type = await t.request('PUT', `/api/deviceGroup/${wall.id}`, { token: technician, json: { type: 'NORMAL' } });
    expect(type.status).toBe(409);
    expect(type.body.key).toBe('deviceGroup.error.typeImmutable');
    const normal = await createOk(root.id, 'EditNormal');
    const data = await t.request('PUT', `/api/deviceGroup/${normal.id}`, { token: technician, json: { videoWallMetaData: { x: 1 } } });
    expect(data.status).toBe(409);
    expect(data.body.key).toBe('deviceGroup.error.notVideoWall');
  });

  it('keeps the root name (409) but tags the root', async () => {
    const res = await t.request('PUT', `/api/deviceGroup/${root.id}`, { token: technician, json: { name: 'x' } });
    expect(res.status).toBe(409);
    expect(res.body.key).toBe('deviceGroup.error.root');
    const tagged = await t.request('PUT', `/api/deviceGroup/${root.id}`, { token: technician, json: { tags: ['everywhere'] } });
    expect(tagged.status).toBe(200);
    expect(tagged.body.name).toBeUndefined();
  });

  it("refuses another tenant's folder (404) and an APPROVER (403)", async () => {
    const folder = await createOk(root.id, 'NotYours');
    expect((await t.request('PUT', `/api/deviceGroup/${folder.id}`, { token: otherTechnician, json: { name: 'x' } })).status).toBe(404);
    expect((await t.request('PUT', `/api/deviceGroup/${folder.id}`, { token: approver, json: { name: 'x' } })).status).toBe(403);
    expect((await t.request('PUT', `/api/deviceGroup/${folder.id}`, { token: technician, json: { name: '' } })).status).toBe(400);
  });
});

describe('GET /api/deviceGroup/getDeviceOnlineOfflineRatio', () => {
  it('counts the online and offline devices in and below each matching folder', async () => {
    const region = await createOk(root.id, 'Region');
    const city = await createOk(region.id, 'City');
    const store = await createOk(city.id, 'Store');
    const empty = await createOk(region.id, 'Empty');
    await kit.insertDevice(region, 'ONLINE');
    await kit.insertDevice(city, 'OFFLINE');
    await kit.insertDevice(store, 'ONLINE');
    await kit.insertDevice(store, 'ONLINE');
    await kit.insertDevice(store, 'OFFLINE');
    const res = await t.request(
      'GET',
      `/api/deviceGroup/getDeviceOnlineOfflineRatio?search=${encodeURIComponent(`deviceGroupPath:${region.id}`)}`,
      { token: viewer },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      [region.id]: { onlineCount: 3, offlineCount: 2 },
      [city.id]: { onlineCount: 2, offlineCount: 2 },
      [store.id]: { onlineCount: 2, offlineCount: 1 },
      [empty.id]: { onlineCount: 0, offlineCount: 0 },
    });
    const one = await t.request('GET', `/api/deviceGroup/getDeviceOnlineOfflineRatio?search=${encodeURIComponent(`id=${city.id}`)}`, {
      token: viewer,
    });
    expect(one.body).toEqual({ [city.id]: { onlineCount: 2, offlineCount: 2 } });
  });

  it('without search: every folder of the tenant, the root counting every device; never another tenant', async () => {
    const res = await t.request('GET', '/api/deviceGroup/getDeviceOnlineOfflineRatio', { token: viewer });
    expect(res.status).toBe(200);
    const [row] = await execRows(t.db, sql`select count(*)::int as n from device where customer_id = ${customerId}`);
    expect(res.body[root.id].onlineCount + res.body[root.id].offlineCount).toBe(Number(row!.n));
    expect(res.body[otherRoot.id]).toBeUndefined();
    const other = await t.request('GET', '/api/deviceGroup/getDeviceOnlineOfflineRatio', { token: otherTechnician });
    expect(other.body).toEqual({ [otherRoot.id]: { onlineCount: 0, offlineCount: 0 } });
    expect((await t.request('GET', '/api/deviceGroup/getDeviceOnlineOfflineRatio?search=nope:1', { token: viewer })).status).toBe(400);
  });
});
