import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateDevice } from '@/server/modules/devices/devices.queries';
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

type Airing = { id: number; nextAiring: number | null; airingEnd: number | null };

async function airing(ids: number[], token = k.approver, at = AT): Promise<Airing[]> {
  const res = await k.t.request('GET', `/api/v2/campaign/airing?campaignIds=${ids.join(',')}&at=${at}`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);

  return res.body as Airing[];
}

const hours = (from: string, end: string) => ({ affectedHours: { allDay: false, from, end } });

describe('GET /api/v2/campaign/airing', () => {
  it('a channel inside its hours airs now, until the end of its window in the screen\'s zone', async () => {
    const c = await k.create(k.contentChannel(contentId, hours('08:00', '18:00'), [berlin.id]));
    expect(await airing([c.id])).toEqual([{ id: c.id, nextAiring: AT, airingEnd: AT + 6 * HOUR }]);
  });

  it('out of hours: the next window, read in each targeted screen\'s zone; the earliest zone wins', async () => {
    // 20:00–22:00 local: Tokyo's starts 11:00 UTC today, Berlin's 18:00 UTC.
    const both = await k.create(k.contentChannel(contentId, hours('20:00', '22:00'), [berlin.id, tokyo.id]));
    const onlyBerlin = await k.create(k.contentChannel(contentId, hours('20:00', '22:00'), [berlin.id]));
    const [a, b] = await airing([both.id, onlyBerlin.id]);
    expect(a).toEqual({ id: both.id, nextAiring: AT + HOUR, airingEnd: AT + 3 * HOUR });
    expect(b).toEqual({ id: onlyBerlin.id, nextAiring: AT + 8 * HOUR, airingEnd: AT + 10 * HOUR });
  });

  it('days, validity and date ranges move the next airing; hours in a named zone are read there', async () => {
    // Friday only (2030-06-14), all day in Berlin: starts 2030-06-13 22:00 UTC.
    const friday = await k.create(
      k.contentChannel(contentId, { affectedDays: { monday: false, tuesday: false, wednesday: false, thursday: false, friday: true, saturday: false, sunday: false } }, [berlin.id]),
    );
    const later = await k.create(k.contentChannel(contentId, { validFrom: '2030-06-20' }, [berlin.id]));
    const excluded = await k.create(k.contentChannel(contentId, { affectedDateRanges: { intervals: [{ from: '2030-06-12', to: '2030-06-13', isExcluded: true }] } }, [berlin.id]));
    const newYork = await k.create(k.contentChannel(contentId, { affectedHours: { allDay: false, from: '09:00', end: '10:00', timeZone: 'America/New_York' } }, [berlin.id]));
    const result = await airing([friday.id, later.id, excluded.id, newYork.id]);
    expect(result.map((r) => r.nextAiring)).toEqual([Date.UTC(2030, 5, 13, 22), Date.UTC(2030, 5, 19, 22), Date.UTC(2030, 5, 13, 22), Date.UTC(2030, 5, 12, 13)]);
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

  it('a viewer may ask; another tenant\'s id is a 404, bad ids a 400', async () => {
    const c = await k.create(k.contentChannel(contentId, {}, [berlin.id]));
    expect(await airing([c.id], k.viewer)).toHaveLength(1);
    expect((await k.t.request('GET', `/api/v2/campaign/airing?campaignIds=${c.id}`, { token: k.otherApprover })).status).toBe(404);
    expect((await k.t.request('GET', '/api/v2/campaign/airing?campaignIds=a,b', { token: k.viewer })).status).toBe(400);
    const many = Array.from({ length: 51 }, (_, i) => i + 1).join(',');
    expect((await k.t.request('GET', `/api/v2/campaign/airing?campaignIds=${many}`, { token: k.viewer })).status).toBe(400);
  });
});
