import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaignsTestKit, type CampaignsTestKit } from '@/server/modules/campaigns/campaigns.test-kit';
import { campaigns } from '@/server/modules/campaigns/campaigns.table';
import { startRemote } from '@/server/modules/datasources/datasources.test-kit';
import { insertFolder, rootFolderOf } from '@/server/modules/files/files.test-kit';
import { files } from '@/server/modules/files/files.table';
import type { WebhookExecutor } from './webhook-executor';
import { testExecutor } from './webhooks.test-kit';

/*
 * Trigger → execution → effect, per action family (spec 5 §4), through the public trigger endpoint and the executor
 * the job runs. Device actions: device-actions (webhook-devices.api.test.ts).
 */

const ACTIONS = '/api/webhookEvent/actions';

let k: CampaignsTestKit;
let executor: WebhookExecutor;
let technician: string;
let key: string;

beforeAll(async () => {
  k = await campaignsTestKit();
  executor = testExecutor(k.t);
  technician = (await k.t.actor('TECHNICIAN', { customerId: k.customerId })).token;
  const created = await k.t.request('POST', '/api/webhooks/apikey', { token: technician, json: { name: 'Integration' } });
  key = created.body.token;
});
afterAll(async () => {
  executor.stop();
  await k.t.close();
});

async function action(body: Record<string, unknown>): Promise<number> {
  const res = await k.t.request('POST', ACTIONS, { token: technician, json: { name: `Action ${body.eventId}`, enabled: true, ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);

  return res.body.id;
}

/** Triggers `eventId` and waits for its execution to finish; answers the execution. */
async function fire(eventId: string, payload: Record<string, unknown> = {}) {
  const res = await k.t.request('POST', '/public-api/integration/webhooks', {
    json: { event_id: eventId, ...payload },
    headers: { 'x-webhook-apikey': key },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  await executor.drain();
  const actionId = (await k.t.request('GET', `${ACTIONS}?search=${encodeURIComponent(`eventId=${eventId}`)}`, { token: technician })).body
    .content[0].id;
  const executions = await k.t.request('GET', `${ACTIONS}/${actionId}/executions`, { token: technician });
  const execution = executions.body.content.find((e: { id: string }) => e.id === res.body.executionId);
  expect(execution?.outcome, JSON.stringify(execution)).toBeDefined();

  return execution as { outcome: string; detail?: string; affected?: number };
}

async function internalDatasource(structureType: 'KEY_VALUE' | 'LIST', data: unknown): Promise<string> {
  const res = await k.t.request('POST', '/api/datasource', {
    token: k.owner,
    json: { name: `Data ${Math.random()}`, sourceType: 'INTERNAL', structureType },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect((await k.t.request('PUT', `/api/datasource/${res.body.id}/data`, { token: k.owner, json: data })).status).toBe(200);

  return res.body.id;
}

const dataOf = async (id: string) => (await k.t.request('GET', `/api/datasource/${id}/data`, { token: k.owner })).body;

describe('datasource actions', () => {
  it('count, merge and array operations change the data; a deleted datasource fails the execution with the reason', async () => {
    const id = await internalDatasource('KEY_VALUE', { guests: 3, menu: { soup: 'Tomato' }, queue: ['A', 'B'] });
    await action({
      eventId: 'guest-in',
      action: 'INCREASE_VALUE_IN_DATASOURCE',
      targetId: id,
      actionParams: { keySelector: 'guests', maximumValue: '4' },
    });
    await action({ eventId: 'menu', action: 'MERGE_INTERNAL_DATASOURCE', targetId: id });
    await action({ eventId: 'next', action: 'ROTATE_ARRAY_INTERNAL_DATASOURCE', targetId: id, actionParams: { keySelector: 'queue' } });

    expect(await fire('guest-in')).toMatchObject({ outcome: 'SUCCEEDED', affected: 1 });
    expect(await fire('guest-in')).toMatchObject({ outcome: 'SUCCEEDED', affected: 0 });
    expect(await fire('menu', { data: JSON.stringify({ menu: { soup: 'Sold out' } }) })).toMatchObject({ outcome: 'SUCCEEDED' });
    expect(await fire('next')).toMatchObject({ outcome: 'SUCCEEDED' });
    expect(await dataOf(id)).toEqual({ guests: 4, menu: { soup: 'Sold out' }, queue: ['B', 'A'] });

    expect((await k.t.request('DELETE', `/api/datasource/${id}`, { token: k.owner })).status).toBe(204);
    const gone = await fire('next');
    expect(gone.outcome).toBe('FAILED');
    expect(gone.detail).toMatch(/datasource/i);
  });
});

describe('campaign actions', () => {
  it('disable and enable a channel by id and by tag; its saturation from the payload', async () => {
    const contentId = (await k.own.content()).id;
    const channel = await k.create(k.contentChannel(contentId, { tags: ['menu-board'] }));
    await action({ eventId: 'close', action: 'DISABLE_CAMPAIGN', targetId: String(channel.id) });
    await action({ eventId: 'open', action: 'ENABLE_CAMPAIGN_BY_TAGS', actionParams: { tag: 'menu-board' } });
    await action({ eventId: 'busy', action: 'CHANGE_SATURATION_CAMPAIGN', targetId: String(channel.id) });
    const enabled = async () =>
      (await k.t.db.select({ enabled: campaigns.enabled }).from(campaigns).where(eq(campaigns.id, channel.id)))[0]!.enabled;

    expect(await fire('close')).toMatchObject({ outcome: 'SUCCEEDED', affected: 1 });
    expect(await enabled()).toBe(false);
    expect(await fire('open')).toMatchObject({ outcome: 'SUCCEEDED', affected: 1 });
    expect(await enabled()).toBe(true);
    expect(await fire('busy', { saturation: 3 })).toMatchObject({ outcome: 'SUCCEEDED', affected: 1 });
    expect((await k.t.db.select({ s: campaigns.saturation }).from(campaigns).where(eq(campaigns.id, channel.id)))[0]!.s).toBe(3);
    // Payload fields of spec 3 have their types: refused at the trigger.
    const bad = await k.t.request('POST', '/public-api/integration/webhooks', {
      json: { event_id: 'busy', saturation: 'lots' },
      headers: { 'x-webhook-apikey': key },
    });
    expect(bad.status).toBe(400);
    // A saturation out of the campaign's range fails the execution with the reason.
    expect(await fire('busy', { saturation: -1 })).toMatchObject({ outcome: 'FAILED', detail: expect.stringMatching(/saturation/i) });
  });
});

describe('folder actions', () => {
  it('UPLOAD_FILE_TO_FOLDER adds the fetched file to the folder; a remote 404 fails with the reason', async () => {
    const remote = await startRemote({ '/menu.png': { headers: { 'content-type': 'image/png' }, body: tinyPng() } });
    try {
      const folder = await insertFolder(k.t.db, await rootFolderOf(k.t.db, k.customerId), 'Menus');
      await action({ eventId: 'upload', action: 'UPLOAD_FILE_TO_FOLDER', targetId: folder.id });
      const done = await fire('upload', { url: remote.url('/menu.png'), name: 'Lunch menu' });
      expect(done, JSON.stringify(done)).toMatchObject({ outcome: 'SUCCEEDED', affected: 1 });
      const stored = await k.t.db.select().from(files).where(eq(files.fileFolderId, folder.id));
      expect(stored.map((f) => f.name)).toEqual([expect.stringMatching(/^Lunch menu/)]);
      const missing = await fire('upload', { url: remote.url('/gone.png') });
      expect(missing.outcome).toBe('FAILED');
      expect(missing.detail).toMatch(/404/);
    } finally {
      await remote.close();
    }
  });
});

/** A 1×1 PNG. */
function tinyPng(): Buffer {
  return Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
}
