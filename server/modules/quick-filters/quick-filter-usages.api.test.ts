import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileFolders } from '@/server/modules/folders/folders.table';
import { insertFolder, rootFileFolder } from '@/server/modules/files/tagged-rows.test-kit';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { quickFilterUsages } from './quick-filter-usages';

/*
 * How a later module (campaigns) plugs into the usage point (its manifest lists one kind): a stand-in
 * "channel" kind, here folders named `channel-<filterId>`, makes the filter read-only, blocks its deletion
 * and fills `campaignUsageDetails`. Added before the first request, beside the installed modules.
 */
const channelFolders = (id: unknown) => sql`from ${fileFolders} where ${fileFolders.name} = 'channel-' || ${id}::text`;
quickFilterUsages.add({
  name: 'testChannel',
  count: (id) => sql`select count(*) ${channelFolders(id)}`,
  blocksDelete: true,
  makesReadOnly: true,
  usageField: 'campaignUsageDetails',
  usage: (id) => sql`(select jsonb_agg(jsonb_build_object('id', ${fileFolders.id}, 'name', ${fileFolders.name})) ${channelFolders(id)})`,
});

let t: TestContext;
let editor: string;
let customerId: number;

beforeAll(async () => {
  t = await createTestContext();
  customerId = (await t.factories.customer()).id;
  editor = (await t.actor('EDITOR', { customerId })).token;
});
afterAll(() => t.close());

describe('quick filter usage registry', () => {
  it('a channel use makes the filter readOnly, blocks update and delete, and shows in campaignUsageDetails', async () => {
    const created = await t.request('POST', '/api/quickFilter', {
      token: editor,
      json: { name: 'Used', filteredEntityType: 'FILE', criteria: { type: 'FILE' } },
    });
    const id = created.body.id as string;
    expect(created.body.readOnly).toBe(false);
    const root = await rootFileFolder(t.db, customerId);
    const channel = await insertFolder(t.db, { customerId, parent: root, name: `channel-${id}` });

    const one = await t.request('GET', `/api/quickFilter/${id}?select=name,readOnly,campaignUsageDetails`, { token: editor });
    expect(one.body).toEqual({ id, name: 'Used', readOnly: true, campaignUsageDetails: [{ id: channel.id, name: `channel-${id}` }] });
    const listed = await t.request('GET', `/api/v2/quickFilter?search=${encodeURIComponent('readOnly=true')}`, { token: editor });
    expect(listed.body.content.map((x: { id: string }) => x.id)).toEqual([id]);

    const put = await t.request('PUT', `/api/quickFilter?quickFilterId=${id}`, { token: editor, json: { name: 'Renamed' } });
    expect(put.status).toBe(409);
    expect(put.body.key).toBe('quickFilter.error.readOnly');
    const del = await t.request('DELETE', `/api/quickFilter?quickFilterId=${id}`, { token: editor });
    expect(del.status).toBe(409);
    expect(del.body.details.usages).toEqual([{ kind: 'testChannel', count: 1 }]);
  });
});
