import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { updateDevice } from '@/server/modules/devices/devices.queries';
import { files } from '@/server/modules/files/files.table';
import { campaignsTestKit, type CampaignsTestKit } from './campaigns.test-kit';

let k: CampaignsTestKit;
let contentId: string;
let berlin: { id: string; customerId: number; path: string[] };
let tokyo: { id: string; customerId: number; path: string[] };

// Wednesday 2030-06-12 10:00 UTC: 12:00 in Berlin (CEST), 19:00 in Tokyo.
const AT = Date.UTC(2030, 5, 12, 10);
const HOUR = 3_600_000;

beforeAll(async () => {
  k = await campaignsTestKit();
  contentId = (await k.own.content()).id;
  berlin = await k.own.deviceFolder('Berlin');
  tokyo = await k.own.deviceFolder('Tokyo');
  const b = await k.own.device('d-berlin', berlin);
  const t = await k.own.device('d-tokyo', tokyo);
  await updateDevice(k.t.db, k.customerId, b.id, { timeZone: 'Europe/Berlin' });
  await updateDevice(k.t.db, k.customerId, t.id, { timeZone: 'Asia/Tokyo' });
});
afterAll(() => k.t.close());

type Airing = { id: number; nextAiring: number | null; airingEnd: number | null; hasItems: boolean };

async function airing(ids: number[], token = k.approver, at = AT): Promise<Airing[]> {
  const res = await k.t.request('GET', `/api/v2/campaign/airing?campaignIds=${ids.join(',')}&at=${at}`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);

  return res.body as Airing[];
}

const hours = (from: string, end: string) => ({ affectedHours: { allDay: false, from, end } });

describe('GET /api/v2/campaign/airing', () => {
  it("a channel inside its hours airs now, until the end of its window in the screen's zone", async () => {
    const c = await k.create(k.contentChannel(contentId, hours('08:00', '18:00'), [berlin.id]));
    expect(await airing([c.id])).toEqual([{ id: c.id, nextAiring: AT, airingEnd: AT + 6 * HOUR, hasItems: true }]);
  });

  it("out of hours: the next window, read in each targeted screen's zone; the earliest zone wins", async () => {
    // 20:00–22:00 local: Tokyo's starts 11:00 UTC today, Berlin's 18:00 UTC.
    const both = await k.create(k.contentChannel(contentId, hours('20:00', '22:00'), [berlin.id, tokyo.id]));
    const onlyBerlin = await k.create(k.contentChannel(contentId, hours('20:00', '22:00'), [berlin.id]));
    const [a, b] = await airing([both.id, onlyBerlin.id]);
    expect(a).toEqual({ id: both.id, nextAiring: AT + HOUR, airingEnd: AT + 3 * HOUR, hasItems: true });
    expect(b).toEqual({ id: onlyBerlin.id, nextAiring: AT + 8 * HOUR, airingEnd: AT + 10 * HOUR, hasItems: true });
  });

  it('days, validity and date ranges move the next airing; hours in a named zone are read there', async () => {
    // Friday only (2030-06-14), all day in Berlin: starts 2030-06-13 22:00 UTC.
    const friday = await k.create(
      k.contentChannel(
        contentId,
        {
          affectedDays: { monday: false, tuesday: false, wednesday: false, thursday: false, friday: true, saturday: false, sunday: false },
        },
        [berlin.id],
      ),
    );
    const later = await k.create(k.contentChannel(contentId, { validFrom: '2030-06-20' }, [berlin.id]));
    const excluded = await k.create(
      k.contentChannel(contentId, { affectedDateRanges: { intervals: [{ from: '2030-06-12', to: '2030-06-13', isExcluded: true }] } }, [
        berlin.id,
      ]),
    );
    const newYork = await k.create(
      k.contentChannel(contentId, { affectedHours: { allDay: false, from: '09:00', end: '10:00', timeZone: 'America/New_York' } }, [
        berlin.id,
      ]),
    );
    const result = await airing([friday.id, later.id, excluded.id, newYork.id]);
    expect(result.map((r) => r.nextAiring)).toEqual([
      Date.UTC(2030, 5, 13, 22),
      Date.UTC(2030, 5, 19, 22),
      Date.UTC(2030, 5, 13, 22),
      Date.UTC(2030, 5, 12, 13),
    ]);
    // An all-day channel valid from a date runs past the 14-day window.
    expect(result[1]!.airingEnd).toBeNull();
  });

  it('null when disabled, without screens, expired, or not within 14 days', async () => {
    const off = await k.create(k.contentChannel(contentId, { enabled: false }, [berlin.id]));
    const nowhere = await k.create(k.contentChannel(contentId, {}, []));
    const expired = await k.create(k.contentChannel(contentId, { validTo: '2030-06-01' }, [berlin.id]));
    const far = await k.create(k.contentChannel(contentId, { validFrom: '2030-07-30' }, [berlin.id]));
    expect((await airing([off.id, nowhere.id, expired.id, far.id])).map((r) => r.nextAiring)).toEqual([null, null, null, null]);
  });

  it('nothing to play: no next airing, whatever the time rules say', async () => {
    const where = { deviceGroupAssignment: { assignments: [{ deviceGroupId: berlin.id }] } };
    const base = { level: 'WIDGET', version: '2.0', ...where };
    const emptyContentFolder = await k.own.contentFolder(`Empty ${AT}`);
    const emptyFileFolder = await k.own.fileFolder(`Empty ${AT}`);
    const pdfFolder = await k.own.fileFolder(`Documents ${AT}`);
    await k.t.db
      .update(files)
      .set({ contentType: 'application/pdf' })
      .where(eq(files.id, (await k.own.file('notes.pdf', pdfFolder)).id));
    const pictureFolder = await k.own.fileFolder(`Pictures ${AT}`);
    await k.own.file('later.png', pictureFolder).then((f) =>
      k.t.db
        .update(files)
        .set({ validFrom: new Date(Date.UTC(2030, 5, 14)) })
        .where(eq(files.id, f.id)),
    );
    const tagged = await k.own.file('tagged.png');
    await k.t.db
      .update(files)
      .set({ tags: ['airing-match'] })
      .where(eq(files.id, tagged.id));
    const matchNothing = await k.own.quickFilter('FILE', { tags: ['airing-nothing'] });
    const matchTagged = await k.own.quickFilter('FILE', { tags: ['airing-match'] });
    const folderChannel = (name: string, fileFolderId: string, extra: Record<string, unknown> = {}) =>
      k.create({
        ...base,
        name,
        type: 'ASSETS_DYNAMIC',
        defaultDuration: 10,
        orderingMode: 'DEFAULT',
        fileFolderAssignment: { assignments: [{ fileFolderId }] },
        ...extra,
      });
    // A create needs content: the last item is taken away afterwards.
    const noContent = await k.create(k.contentChannel(contentId, {}, [berlin.id]));
    const put = await k.t.request('PUT', `/api/campaign/${noContent.id}`, {
      token: k.approver,
      json: { contentAssignment: { assignments: [], removeIds: [contentId] } },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const noContentFolder = await k.create({
      ...base,
      name: 'Empty content folder',
      type: 'CONTENT_DYNAMIC',
      contentShuffleMode: 'SERIAL',
      orderingMode: 'DEFAULT',
      contentGroupAssignment: { assignments: [{ contentGroupId: emptyContentFolder.id }] },
    });
    const noFiles = await folderChannel('Empty media folder', emptyFileFolder.id);
    const skipped = await folderChannel('Only a PDF, skipped', pdfFolder.id, { skipInvalidFiles: true });
    const kept = await folderChannel('Only a PDF, kept', pdfFolder.id);
    const later = await folderChannel('A picture valid from Friday', pictureFolder.id);
    const nothingMatches = await k.create({
      ...base,
      name: 'Quick filter matching nothing',
      type: 'ASSET_QUICK_FILTER',
      defaultDuration: 10,
      orderingMode: 'DEFAULT',
      fileQuickFilterId: matchNothing.id,
    });
    const matches = await k.create({
      ...base,
      name: 'Quick filter matching one',
      type: 'ASSET_QUICK_FILTER',
      defaultDuration: 10,
      orderingMode: 'DEFAULT',
      fileQuickFilterId: matchTagged.id,
    });

    const result = await airing([
      noContent.id,
      noContentFolder.id,
      noFiles.id,
      skipped.id,
      kept.id,
      later.id,
      nothingMatches.id,
      matches.id,
    ]);
    expect(result.map((r) => [r.nextAiring, r.hasItems])).toEqual([
      [null, false],
      [null, false],
      [null, false],
      [null, false],
      [AT, true],
      // The file's validity starts 2030-06-14 00:00 UTC: the channel airs from then.
      [Date.UTC(2030, 5, 14), true],
      [null, false],
      [AT, true],
    ]);
  });

  it('a message group channel plays only while one of its sub-channels has something to play', async () => {
    const group = async (name: string) =>
      (await k.t.request('POST', '/api/messageGroup', { token: k.approver, json: { name } })).body as { id: number };
    const message = async (messageGroupId: number, body: Record<string, unknown>) => {
      const res = await k.t.request('POST', '/api/message', { token: k.approver, json: { version: '2.0', messageGroupId, ...body } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    };
    const channel = (name: string, messageGroupId: number) =>
      k.create({
        name,
        level: 'WIDGET',
        type: 'MESSAGE_GROUP',
        version: '2.0',
        contentShuffleMode: 'SERIAL',
        messageGroupAssignment: { assignments: [{ messageGroupId }] },
        deviceGroupAssignment: { assignments: [{ deviceGroupId: berlin.id }] },
      });
    const empty = await group('No messages');
    const emptyFolderOnly = await group('A message without files');
    await message(emptyFolderOnly.id, {
      name: 'Empty folder',
      type: 'ASSETS_DYNAMIC',
      defaultDuration: 5,
      orderingMode: 'DEFAULT',
      fileFolderAssignment: { assignments: [{ fileFolderId: (await k.own.fileFolder(`Nothing ${AT}`)).id }] },
    });
    const fromSaturday = await group('A message from Saturday');
    await message(fromSaturday.id, { name: 'Weekend', type: 'CONTENT', contentId, validFrom: '2030-06-15' });

    const result = await airing([
      (await channel('Empty group', empty.id)).id,
      (await channel('No files', emptyFolderOnly.id)).id,
      (await channel('Weekend', fromSaturday.id)).id,
    ]);
    // The message's dates are read in the screen's zone: Saturday starts 2030-06-14 22:00 UTC in Berlin.
    expect(result.map((r) => [r.nextAiring, r.hasItems])).toEqual([
      [null, false],
      [null, false],
      [Date.UTC(2030, 5, 14, 22), true],
    ]);
  });

  it('a message group channel airs on the screens its sub-channels also target, in their zones', async () => {
    const group = async (name: string) =>
      (await k.t.request('POST', '/api/messageGroup', { token: k.approver, json: { name } })).body as { id: number };
    const message = async (messageGroupId: number, body: Record<string, unknown>) => {
      const res = await k.t.request('POST', '/api/message', {
        token: k.approver,
        json: { version: '2.0', messageGroupId, type: 'CONTENT', contentId, validFrom: '2030-06-15', ...body },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    };
    const channel = (name: string, messageGroupId: number) =>
      k.create({
        name,
        level: 'WIDGET',
        type: 'MESSAGE_GROUP',
        version: '2.0',
        contentShuffleMode: 'SERIAL',
        messageGroupAssignment: { assignments: [{ messageGroupId }] },
        deviceGroupAssignment: { assignments: [{ deviceGroupId: berlin.id }, { deviceGroupId: tokyo.id }] },
      });
    const onlyBerlin = await group('Saturday, Berlin only');
    await message(onlyBerlin.id, {
      name: 'Berlin',
      deviceSelectionMode: 'DYNAMIC',
      deviceGroupAssignment: { assignments: [{ deviceGroupId: berlin.id }] },
    });
    const both = await group('Saturday, everywhere');
    await message(both.id, { name: 'Everywhere' });
    const elsewhere = await group('Saturday, on screens the channel does not target');
    const paris = await k.own.deviceFolder('Paris');
    await k.own.device('d-paris', paris);
    await message(elsewhere.id, {
      name: 'Paris',
      deviceSelectionMode: 'DYNAMIC',
      deviceGroupAssignment: { assignments: [{ deviceGroupId: paris.id }] },
    });

    const result = await airing([
      (await channel('Berlin sub-channel', onlyBerlin.id)).id,
      (await channel('Everywhere', both.id)).id,
      (await channel('Paris sub-channel', elsewhere.id)).id,
    ]);
    // Saturday starts 2030-06-14 15:00 UTC in Tokyo, 22:00 UTC in Berlin: a message for Berlin's screens airs at Berlin's.
    expect(result.map((r) => [r.nextAiring, r.hasItems])).toEqual([
      [Date.UTC(2030, 5, 14, 22), true],
      [Date.UTC(2030, 5, 14, 15), true],
      [null, true],
    ]);
  });

  it("a viewer may ask; another tenant's id is a 404, bad ids a 400", async () => {
    const c = await k.create(k.contentChannel(contentId, {}, [berlin.id]));
    expect(await airing([c.id], k.viewer)).toHaveLength(1);
    expect((await k.t.request('GET', `/api/v2/campaign/airing?campaignIds=${c.id}`, { token: k.otherApprover })).status).toBe(404);
    expect((await k.t.request('GET', '/api/v2/campaign/airing?campaignIds=a,b', { token: k.viewer })).status).toBe(400);
    const many = Array.from({ length: 51 }, (_, i) => i + 1).join(',');
    expect((await k.t.request('GET', `/api/v2/campaign/airing?campaignIds=${many}`, { token: k.viewer })).status).toBe(400);
  });
});
