import { describe, expect, it } from 'vitest';
import { rollupPlays, type RolledPlay } from './play-rollups';

/*
 * The day rollups the ingest adds (play-rollups.ts): per dimension, subject and UTC day, the totals and the
 * running sums over the 96 quarter-hour slots, as the reports read them.
 */

const DEVICE = '0190F0A0-0000-7000-8000-00000000000A';
const FOLDER = '0190f0a0-0000-7000-8000-00000000000b';
const CONTENT = '0190F0A0-0000-7000-8000-00000000000C';
const DAY = Date.UTC(2026, 10, 20);
const QUARTER = 900_000;

const play = (overrides: Partial<RolledPlay> = {}): RolledPlay => ({
  startedAt: DAY + 10 * QUARTER + 60_000,
  durationMs: 10_000,
  completed: true,
  deviceGroupId: FOLDER,
  campaignId: null,
  messageId: null,
  contentId: null,
  pageId: null,
  fileId: null,
  advertiserId: null,
  clicks: 0,
  viewers: 0,
  attentionMs: 0,
  ...overrides,
});

/** 97 running sums from a leading 0, of per-slot values given as `{ slot: value }`. */
function runningSums(values: Record<number, number>): number[] {
  const sums = [0];
  for (let slot = 0; slot < 96; slot++) sums.push(sums[slot]! + (values[slot] ?? 0));

  return sums;
}

describe('rollupPlays', () => {
  it('counts each play under every subject it names, per UTC day, in running sums over the quarter hours', () => {
    const rollups = rollupPlays(DEVICE, [
      play({ campaignId: 7, contentId: CONTENT, pageId: 'Intro', clicks: 2 }),
      play({ startedAt: DAY + 10 * QUARTER + 899_999, completed: false, durationMs: 5_000 }),
      play({ startedAt: DAY + 95 * QUARTER, viewers: 3, attentionMs: 1_500 }),
      play({ startedAt: DAY + 96 * QUARTER }), // the next UTC day, slot 0
    ]);
    const find = (dimension: string, subjectId: string, day = '2026-11-20') =>
      rollups.find((r) => r.dimension === dimension && r.subjectId === subjectId && r.day === day);

    const device = find('DEVICE', DEVICE.toLowerCase())!;
    expect(device.totals).toEqual({ starts: 3, ends: 2, durationMs: 25_000, clicks: 2, viewers: 3, attentionMs: 1_500 });
    expect(device.runningSums.starts).toEqual(runningSums({ 10: 2, 95: 1 }));
    expect(device.runningSums.ends).toEqual(runningSums({ 10: 1, 95: 1 }));
    expect(device.runningSums.durationMs).toEqual(runningSums({ 10: 15_000, 95: 10_000 }));
    expect(device.runningSums.clicks).toEqual(runningSums({ 10: 2 }));
    expect(device.runningSums.attentionMs).toEqual(runningSums({ 95: 1_500 }));
    expect(find('DEVICE', DEVICE.toLowerCase(), '2026-11-21')!.runningSums.starts).toEqual(runningSums({ 0: 1 }));

    // Subject ids as PostgreSQL writes them: uuids in lower case, a content page as `<contentId>/<pageId>`.
    expect(find('DEVICE_GROUP', FOLDER)!.totals.starts).toBe(3);
    expect(find('CAMPAIGN', '7')!.totals).toMatchObject({ starts: 1, clicks: 2 });
    expect(find('CONTENT', CONTENT.toLowerCase())!.totals.starts).toBe(1);
    expect(find('CONTENT_PAGE', `${CONTENT.toLowerCase()}/Intro`)!.totals.starts).toBe(1);
    expect(rollups.filter((r) => r.dimension === 'MESSAGE' || r.dimension === 'MEDIA_FILE' || r.dimension === 'ADVERTISER')).toEqual([]);
    expect(rollups).toHaveLength(7); // DEVICE and DEVICE_GROUP on two days, CAMPAIGN, CONTENT, CONTENT_PAGE
  });

  it('leaves a counter that stays 0 all day empty (null), and the same subject named in other cases is one subject', () => {
    const [rollup, ...others] = rollupPlays(DEVICE, [play({ fileId: CONTENT }), play({ fileId: CONTENT.toLowerCase() })]).filter(
      (r) => r.dimension === 'MEDIA_FILE',
    );
    expect(others).toEqual([]);
    expect(rollup!.totals).toEqual({ starts: 2, ends: 2, durationMs: 20_000, clicks: 0, viewers: 0, attentionMs: 0 });
    expect(rollup!.runningSums).toMatchObject({ clicks: null, viewers: null, attentionMs: null });
    expect(rollup!.runningSums.starts).toHaveLength(97);
  });

  it('answers nothing for no plays', () => {
    expect(rollupPlays(DEVICE, [])).toEqual([]);
  });
});
