import { describe, expect, it } from 'vitest';
import { SegmentSchema } from '@/server/modules/display/display.schemas';
import { at, campaign, content, device, file, group, message } from './fixtures.test-kit';
import { resolveSegments } from './resolver';
import type { ContentRef } from './types';

// Berlin, Wednesday 2026-06-10 (CEST, UTC+2): the local day is [2026-06-09T22:00Z, 2026-06-10T22:00Z)
const DAY = { from: at('2026-06-09T22:00:00Z'), to: at('2026-06-10T22:00:00Z') };
const berlin = (hhmm: string) => at(`2026-06-10T${hhmm}:00+02:00`);
const ref = (n: number): ContentRef => ({ id: content(n).id, name: content(n).name, deviceContentType: 'content' });

describe('layers', () => {
  const top = (id: number, weight: number, contents = [content(id * 10 + 2, { weight: 2 }), content(id * 10 + 1, { weight: 1 })]) =>
    campaign(id, { level: 'TOP', weight, files: [], contents });

  it.each([
    [
      'EMERGENCY: the device emergency content',
      { emergencyStatus: true, emergencyContent: ref(1), defaultEmergencyContent: ref(2), content: ref(3) },
      [top(1, 0)],
      'EMERGENCY',
      ref(1),
    ],
    [
      'EMERGENCY: else the customer default',
      { emergencyStatus: true, defaultEmergencyContent: ref(2), content: ref(3) },
      [],
      'EMERGENCY',
      ref(2),
    ],
    ['EMERGENCY without content falls through', { emergencyStatus: true, content: ref(3) }, [], 'CONTENT', ref(3)],
    ['SCHEDULE over assigned content: its first content by assignment weight', { content: ref(3) }, [top(1, 0)], 'SCHEDULE', ref(11)],
    ['SCHEDULE: the lowest weight wins', {}, [top(1, 5), top(2, 1)], 'SCHEDULE', ref(21)],
    ['SCHEDULE: then the lowest id', {}, [top(2, 1), top(1, 1)], 'SCHEDULE', ref(11)],
    ['CONTENT', { content: ref(3) }, [campaign(1)], 'CONTENT', ref(3)],
    ['CHANNELS', {}, [campaign(1)], 'CHANNELS', undefined],
    ['NONE', {}, [campaign(1, { enabled: false })], 'NONE', undefined],
  ] as const)('%s', (_, facts, campaigns, layer, shown) => {
    const [segment, ...rest] = resolveSegments({ campaigns }, device(facts), DAY);
    expect(rest).toEqual([]);
    expect(segment).toMatchObject({ ...DAY, layer });
    expect(segment?.content).toEqual(shown);
  });

  it('names the schedule of a SCHEDULE segment; two schedules showing the same content in a row are two segments', () => {
    const schedule = (id: number, from: string, end: string) =>
      campaign(id, { level: 'TOP', files: [], contents: [content(1)], affectedHours: { allDay: false, from, end } });
    const segments = resolveSegments({ campaigns: [schedule(1, '08:00', '12:00'), schedule(2, '12:00', '18:00')] }, device(), DAY);
    expect(segments.map((s) => [s.from, s.layer, s.schedule, s.content?.id])).toEqual([
      [DAY.from, 'NONE', undefined, undefined],
      [berlin('08:00'), 'SCHEDULE', { id: 1, name: 'campaign-1' }, content(1).id],
      [berlin('12:00'), 'SCHEDULE', { id: 2, name: 'campaign-2' }, content(1).id],
      [berlin('18:00'), 'NONE', undefined, undefined],
    ]);
    expect(segments.every((s) => SegmentSchema.safeParse(s).success)).toBe(true);
  });

  it('lists the eligible channels by weight then id on every layer, with name, weight, saturation and tags', () => {
    const campaigns = [
      campaign(3, { weight: 1 }),
      campaign(2, { weight: 1, saturation: 2, tags: ['lobby'] }),
      campaign(9, { weight: 0 }),
      campaign(4, { level: 'TOP', files: [], contents: [content(1)] }),
    ];
    const [segment] = resolveSegments({ campaigns }, device(), DAY);
    expect(segment?.layer).toBe('SCHEDULE');
    expect(segment?.channels.map((c) => [c.campaignId, c.weight, c.saturation, c.tags])).toEqual([
      [9, 0, 1, []],
      [2, 1, 2, ['lobby']],
      [3, 1, 1, []],
    ]);
    expect(SegmentSchema.safeParse(segment).success).toBe(true);
  });
});

describe('boundaries', () => {
  it('cut the window where eligibility changes and nowhere else', () => {
    const segments = resolveSegments(
      { campaigns: [campaign(1, { affectedHours: { allDay: false, from: '08:00', end: '18:00' } })] },
      device(),
      DAY,
    );
    expect(segments.map((s) => [s.from, s.to, s.layer])).toEqual([
      [DAY.from, berlin('08:00'), 'NONE'],
      [berlin('08:00'), berlin('18:00'), 'CHANNELS'],
      [berlin('18:00'), DAY.to, 'NONE'],
    ]);
  });

  it('merge equal neighbours: two back-to-back windows of one channel are one segment', () => {
    const campaigns = [
      campaign(1, { affectedHours: { allDay: false, from: '08:00', end: '12:00' } }),
      campaign(1, { affectedHours: { allDay: false, from: '12:00', end: '18:00' } }),
    ];
    expect(resolveSegments({ campaigns }, device(), DAY).map((s) => s.layer)).toEqual(['NONE', 'CHANNELS', 'NONE']);
  });

  it('cut at file validity edges: the items change', () => {
    const campaigns = [campaign(1, { files: [file(1), file(2, { validFrom: berlin('12:00') })] })];
    const segments = resolveSegments({ campaigns }, device(), DAY);
    expect(segments.map((s) => [s.from, s.channels[0]?.items.map((i) => i.name)])).toEqual([
      [DAY.from, ['file-1.png']],
      [berlin('12:00'), ['file-1.png', 'file-2.png']],
    ]);
  });

  it('start a channel when its only file becomes valid and end it after the file validTo (inclusive)', () => {
    const campaigns = [campaign(1, { files: [file(1, { validFrom: berlin('12:00'), validTo: berlin('13:00') })] })];
    expect(resolveSegments({ campaigns }, device(), DAY).map((s) => [s.from, s.layer])).toEqual([
      [DAY.from, 'NONE'],
      [berlin('12:00'), 'CHANNELS'],
      [berlin('13:00') + 1, 'NONE'],
    ]);
  });

  it('answer nothing for an empty window', () => {
    expect(resolveSegments({ campaigns: [] }, device(), { from: 5, to: 5 })).toEqual([]);
  });
});

describe('items', () => {
  const items = (c: Parameters<typeof campaign>[1]) =>
    resolveSegments({ campaigns: [campaign(1, c)] }, device(), DAY)[0]!.channels[0]!.items;

  it('last: a video its own length capped by duration, an image defaultDuration (10 s, at least 3 s), content by its pages', () => {
    const files = [file(1, { kind: 'video', durationMs: 42_000 }), file(2), file(3, { kind: 'other' }), file(4, { kind: 'video' })];
    expect(items({ files }).map((i) => i.durationMs)).toEqual([42_000, 10_000, 10_000, 10_000]);
    expect(items({ files, durationS: 30 }).map((i) => i.durationMs)).toEqual([30_000, 10_000, 10_000, 10_000]);
    expect(items({ files, defaultDurationS: 1 }).map((i) => i.durationMs)).toEqual([42_000, 3_000, 3_000, 3_000]);
    const contents = [content(1, { pageCount: 3 }), content(2, { pageCount: 2, durationMs: 50_000 })];
    expect(items({ files: [], contents }).map((i) => [i.type, i.durationMs])).toEqual([
      ['CONTENT', 30_000],
      ['CONTENT', 50_000],
    ]);
    expect(items({ files: [], contents, contentShuffleMode: 'BALANCED' }).map((i) => i.durationMs)).toEqual([10_000, 25_000]);
    expect(items({ files: [], contents, durationS: 20 }).map((i) => i.durationMs)).toEqual([30_000, 40_000]);
  });

  it('play in DEFAULT (weight then id), ALPHABET or RANDOM order', () => {
    const files = [file(3, { weight: 1, name: 'a.png' }), file(1, { weight: 2, name: 'c.png' }), file(2, { weight: 1, name: 'b.png' })];
    expect(items({ files }).map((i) => i.name)).toEqual(['b.png', 'a.png', 'c.png']);
    expect(items({ files, orderingMode: 'ALPHABET' }).map((i) => i.name)).toEqual(['a.png', 'b.png', 'c.png']);
    const random = items({ files, orderingMode: 'RANDOM' }).map((i) => i.name);
    expect([...random].sort()).toEqual(['a.png', 'b.png', 'c.png']);
    expect(items({ files, orderingMode: 'RANDOM' }).map((i) => i.name)).toEqual(random);
  });

  it('RANDOM reshuffles per local day: the segments cut at the device midnight', () => {
    const files = Array.from({ length: 8 }, (_, i) => file(i + 1));
    const week = { from: DAY.from, to: DAY.from + 7 * 86_400_000 };
    const segments = resolveSegments({ campaigns: [campaign(1, { files, orderingMode: 'RANDOM' })] }, device(), week);
    expect(segments.length).toBeGreaterThan(1);
    for (const s of segments) expect((s.from - DAY.from) % 86_400_000).toBe(0);
    const orders = new Set(segments.map((s) => JSON.stringify(s.channels[0]!.items.map((i) => i.id))));
    expect(orders.size).toBe(segments.length);
  });

  it('map the playback slot: one item, N items or all, and a slot duration', () => {
    const slot = (c: Parameters<typeof campaign>[1]) =>
      resolveSegments({ campaigns: [campaign(1, c)] }, device(), DAY)[0]!.channels[0]!.playbackSlot;
    expect(slot({})).toEqual({ items: 1 });
    expect(
      slot({ playMultipleItemsInSinglePlaybackSlot: true, playAllItemsInSinglePlaybackSlot: false, playbackSlotNumberOfElementsToPlay: 3 }),
    ).toEqual({ items: 3 });
    expect(slot({ playMultipleItemsInSinglePlaybackSlot: true })).toBeUndefined();
    expect(slot({ playMultipleItemsInSinglePlaybackSlot: true, playbackSlotDuration: 45 })).toEqual({ durationMs: 45_000 });
  });
});

describe('message groups', () => {
  const messages = [
    message(1, { weight: 1, files: [file(11), file(12), file(13)] }),
    message(2, { weight: 0, files: [file(21), file(22)], saturation: 0 }),
    message(3, { weight: 2, files: [file(31)], saturation: 3 }),
  ];
  const items = (c: Parameters<typeof campaign>[1]) =>
    resolveSegments(
      { campaigns: [campaign(1, { files: [], messageGroups: [group(5, messages)], ...c })] },
      device(),
      DAY,
    )[0]!.channels[0]!.items.map((i) => `${i.messageId}:${i.name}`);

  it('SERIAL: each eligible message turn after the other, by weight; saturation items per turn (0 = all), capped by the item count', () => {
    expect(items({ contentShuffleMode: 'SERIAL' })).toEqual(['2:file-21.png', '2:file-22.png', '1:file-11.png', '3:file-31.png']);
  });

  it('BALANCED: one item of each message per round', () => {
    const wide = [
      message(1, { files: [file(11), file(12)], saturation: 2 }),
      message(2, { files: [file(21), file(22), file(23)], saturation: 0 }),
    ];
    const out = resolveSegments(
      { campaigns: [campaign(1, { files: [], contentShuffleMode: 'BALANCED', messageGroups: [group(5, wide)] })] },
      device(),
      DAY,
    )[0]!.channels[0]!.items;
    expect(out.map((i) => i.name)).toEqual(['file-11.png', 'file-21.png', 'file-12.png', 'file-22.png', 'file-23.png']);
  });

  it('uncapped saturation wraps around the items', () => {
    const wrap = [message(3, { files: [file(31), file(32)], saturation: 3, isPlayedElementsCappedByItemCount: false })];
    const out = resolveSegments({ campaigns: [campaign(1, { files: [], messageGroups: [group(5, wrap)] })] }, device(), DAY)[0]!
      .channels[0]!.items;
    expect(out.map((i) => i.name)).toEqual(['file-31.png', 'file-32.png', 'file-31.png']);
  });

  it('answer the Segment wire shape, items tagged with their message', () => {
    const [segment] = resolveSegments({ campaigns: [campaign(1, { files: [], messageGroups: [group(5, messages)] })] }, device(), DAY);
    const parsed = SegmentSchema.parse(segment);
    expect(parsed.channels[0]!.items.every((i) => i.type === 'FILE' && typeof i.messageId === 'number')).toBe(true);
  });

  it('leave out messages that are not eligible, and cut segments at their edges', () => {
    const timed = [message(1, { affectedHours: { allDay: false, from: '12:00', end: '13:00' } }), message(2)];
    const segments = resolveSegments({ campaigns: [campaign(1, { files: [], messageGroups: [group(5, timed)] })] }, device(), DAY);
    expect(segments.map((s) => [s.from, s.channels[0]!.items.map((i) => i.messageId)])).toEqual([
      [DAY.from, [2]],
      [berlin('12:00'), [1, 2]],
      [berlin('13:00'), [2]],
    ]);
  });
});
