import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices } from '@/server/modules/devices/devices.table';
import { asDevice, newDevice, type TestDevice, connectDeviceSocket } from '@/server/modules/display/display.test-kit';
import { createTestContext, type TestContext } from '@/server/test/harness';

/*
 * Spec 5 §2: a change of a datasource's document reaches every connected device whose content shows it as a
 * `datasourceChanged` frame, over the real listener and the notification feed (LISTEN/NOTIFY on PostgreSQL).
 */

let t: TestContext;
let base: string;

beforeAll(async () => {
  t = await createTestContext();
  base = await t.listen();
});
afterAll(() => t.close());

const connect = (device: TestDevice) => connectDeviceSocket(t, base, device);

describe('datasourceChanged (spec 5 §2)', () => {
  it('reaches the connected devices that show the datasource, and only them, when its data changes', async () => {
    const customerId = (await t.factories.customer()).id;
    const editor = (await t.actor('EDITOR', { customerId })).token;
    const ds = await t.request('POST', '/api/datasource', {
      token: editor,
      json: { name: 'Queue', sourceType: 'INTERNAL', structureType: 'KEY_VALUE' },
    });
    expect(ds.status).toBe(201);
    const root = await t.request('GET', '/api/v2/contentGroup?search=parentId=NULL', { token: editor });
    const groupId = (root.body.content as Array<{ id: string; parentId?: string | null }>).find((g) => !g.parentId)!.id;
    const widget = {
      id: 'n',
      type: 'datasource',
      x: 0,
      y: 0,
      width: 300,
      height: 100,
      zIndex: 1,
      mode: 'text',
      datasourceId: ds.body.id,
      field: 'now',
    };
    const slide = await t.request('POST', `/api/content?contentGroupId=${groupId}`, {
      token: editor,
      json: {
        name: 'Queue board',
        structureType: 'SLIDE',
        data: { Default: { pageData: { screenSize: { width: 1920, height: 1080 } }, widgets: [widget] } },
      },
    });
    expect(slide.status, JSON.stringify(slide.body)).toBe(201);
    const showing = await newDevice(t, { customerId });
    const elsewhere = await newDevice(t, { customerId });
    await t.db.update(devices).set({ contentId: slide.body.id }).where(eq(devices.id, showing.deviceId));
    const a = await connect(showing);
    const b = await connect(elsewhere);
    try {
      const set = await t.request('POST', `/api/display/datasource/${ds.body.id}/set?key=now&value=42`, { token: editor });
      expect(set.status).toBe(200);
      await expect
        .poll(() => a.frames.filter((f) => f.type === 'datasourceChanged'), { timeout: 5_000 })
        .toEqual([{ type: 'datasourceChanged', id: ds.body.id }]);
      // The same value again changes nothing: no second frame.
      await t.request('POST', `/api/display/datasource/${ds.body.id}/set?key=now&value=42`, { token: editor });
      await t.request('POST', `/api/display/datasource/${ds.body.id}/set?key=next&value=43`, { token: editor });
      await expect.poll(() => a.frames.filter((f) => f.type === 'datasourceChanged').length, { timeout: 5_000 }).toBe(2);
      expect(b.frames.filter((f) => f.type === 'datasourceChanged')).toEqual([]);
      const read = await asDevice(t, showing.token)('GET', `/api/display/datasource/${ds.body.id}`);
      expect(read.body).toEqual({ now: 42, next: 43 });
    } finally {
      a.socket.close();
      b.socket.close();
    }
  });
});
