import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaignsTestKit, type CampaignsTestKit } from './campaigns.test-kit';

let k: CampaignsTestKit;
const get = (path: string) => k.t.request('GET', path, { token: k.owner });

beforeAll(async () => {
  k = await campaignsTestKit();
});
afterAll(() => k.t.close());

const usageFields = 'campaignUsageDetails,topLevelCampaignUsageDetails';
const ids = (usage: { id: number }[]) => usage.map((u) => u.id);

describe('what campaigns use answers campaignUsageDetails / topLevelCampaignUsageDetails', () => {
  it('files and file folders (ASSETS_STATIC, ASSETS_DYNAMIC), with deletes refused while used', async () => {
    const file = await k.own.file('used.png');
    const folder = await k.own.fileFolder('Used folder');
    const sub = await k.own.fileFolder('Below', folder);
    const assets = await k.create({
      name: 'Assets',
      level: 'WIDGET',
      type: 'ASSETS_STATIC',
      version: '2.0',
      defaultDuration: 5,
      orderingMode: 'DEFAULT',
      fileAssignment: { assignments: [{ fileId: file.id }] },
    });
    const dynamic = await k.create({
      name: 'Folder',
      level: 'WIDGET',
      type: 'ASSETS_DYNAMIC',
      version: '2.0',
      defaultDuration: 5,
      orderingMode: 'DEFAULT',
      fileFolderAssignment: { assignments: [{ fileFolderId: sub.id }] },
    });

    const files = await get(`/api/v2/file?search=id=${file.id}&select=${usageFields}`);
    expect(files.status, JSON.stringify(files.body)).toBe(200);
    expect(ids(files.body.content[0].campaignUsageDetails)).toEqual([assets.id]);
    expect(files.body.content[0].topLevelCampaignUsageDetails).toEqual([]);
    const folders = await get(`/api/v2/fileFolder?search=id=${sub.id}&select=${usageFields}`);
    expect(ids(folders.body.content[0].campaignUsageDetails)).toEqual([dynamic.id]);

    const fileDelete = await k.t.request('DELETE', `/api/file/${file.id}`, { token: k.owner });
    expect([fileDelete.status, fileDelete.body.key]).toEqual([409, 'file.error.inUse']);
    const folderDelete = await k.t.request('DELETE', `/api/fileFolder/${folder.id}`, { token: k.owner });
    expect(folderDelete.status).toBe(409);
  });

  it('replaceFileReference swaps the file in campaigns (a duplicate assignment collapses)', async () => {
    const old = await k.own.file('old.png');
    const replacement = await k.own.file('new.png');
    const kept = await k.own.file('kept.png');
    const one = await k.create({
      name: 'One',
      level: 'WIDGET',
      type: 'ASSETS_STATIC',
      version: '2.0',
      defaultDuration: 5,
      orderingMode: 'DEFAULT',
      fileAssignment: { assignments: [{ fileId: old.id, weight: 4 }, { fileId: kept.id }] },
    });
    const both = await k.create({
      name: 'Both',
      level: 'WIDGET',
      type: 'ASSETS_STATIC',
      version: '2.0',
      defaultDuration: 5,
      orderingMode: 'DEFAULT',
      fileAssignment: { assignments: [{ fileId: old.id }, { fileId: replacement.id }] },
    });
    const res = await k.t.request(
      'PUT',
      `/api/file/replaceFileReference?fileIdToReplace=${old.id}&sourceFileId=${replacement.id}&removeOldFile=true`,
      { token: k.approver },
    );
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    const read = (id: number) => k.t.request('GET', `/api/v2/campaign/${id}?select=fileAssignments`, { token: k.viewer });
    expect((await read(one.id)).body.fileAssignments).toEqual([
      { id: replacement.id, name: 'new.png', weight: 4 },
      { id: kept.id, name: 'kept.png' },
    ]);
    expect((await read(both.id)).body.fileAssignments.map((a: { id: string }) => a.id)).toEqual([replacement.id]);
  });

  it('content and content folders; deleting used content is refused', async () => {
    const content = await k.own.content('Used content');
    const folder = await k.own.contentFolder('Used content folder');
    const channel = await k.create(k.contentChannel(content.id));
    const schedule = await k.create({ ...k.contentChannel(content.id), level: 'TOP', affectedDateRanges: { intervals: [] } });
    const dynamic = await k.create({
      name: 'Dyn',
      level: 'WIDGET',
      type: 'CONTENT_DYNAMIC',
      version: '2.0',
      orderingMode: 'DEFAULT',
      contentShuffleMode: 'BALANCED',
      contentGroupAssignment: { assignments: [{ contentGroupId: folder.id }] },
    });
    const item = await get(`/api/v2/deviceContent/${content.id}?select=${usageFields}`);
    expect(item.status, JSON.stringify(item.body)).toBe(200);
    expect(ids(item.body.campaignUsageDetails)).toEqual([channel.id]);
    expect(ids(item.body.topLevelCampaignUsageDetails)).toEqual([schedule.id]);
    const groups = await get(`/api/v2/contentGroup?search=id=${folder.id}&select=${usageFields}`);
    expect(ids(groups.body.content[0].campaignUsageDetails)).toEqual([dynamic.id]);
    const refused = await k.t.request('DELETE', `/api/simpleLoop/${content.id}`, { token: k.owner });
    expect(refused.status).toBe(409);
  });

  it('device folders; deleting a device or folder a campaign targets just drops it', async () => {
    const folder = await k.own.deviceFolder('Targeted');
    const device = await k.own.device('Targeted screen', folder);
    const channel = await k.create(k.contentChannel((await k.own.content()).id, {}, [folder.id]));
    const schedule = await k.create({
      ...k.contentChannel((await k.own.content()).id, {}, [folder.id]),
      level: 'TOP',
      affectedDateRanges: { intervals: [] },
    });
    const groups = await get(`/api/v2/deviceGroup?search=id=${folder.id}&select=${usageFields}`);
    expect(groups.status, JSON.stringify(groups.body)).toBe(200);
    expect(ids(groups.body.content[0].campaignUsageDetails)).toEqual([channel.id]);
    expect(ids(groups.body.content[0].topLevelCampaignUsageDetails)).toEqual([schedule.id]);
    expect(await k.playerDevices(channel.id)).toEqual(['Targeted screen']);
    expect((await k.t.request('DELETE', `/api/device/${device.id}`, { token: k.owner })).status).toBe(204);
    expect(await k.playerDevices(channel.id)).toEqual([]);
  });

  it('quick filters used by campaigns are readOnly, list them, and cannot be deleted (409)', async () => {
    const filter = await k.own.quickFilter('DEVICE');
    const channel = await k.create(
      k.contentChannel((await k.own.content()).id, { deviceSelectionMode: 'QUICK_FILTER', deviceQuickFilterId: filter.id }, []),
    );
    const read = await get(`/api/v2/quickFilter?search=id=${filter.id}&select=readOnly,campaignUsageDetails`);
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    expect(read.body.content[0]).toMatchObject({ readOnly: true });
    expect(ids(read.body.content[0].campaignUsageDetails)).toEqual([channel.id]);
    const refused = await k.t.request('DELETE', `/api/quickFilter/?quickFilterId=${filter.id}`, { token: k.owner });
    expect(refused.status).toBe(409);
    expect((await k.t.request('DELETE', `/api/campaign/${channel.id}`, { token: k.approver })).status).toBe(204);
    expect((await k.t.request('DELETE', `/api/quickFilter/?quickFilterId=${filter.id}`, { token: k.owner })).status).toBe(204);
  });
});
