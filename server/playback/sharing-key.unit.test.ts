import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { campaign, device, file, group, message } from './fixtures.test-kit';
import { resolveSegments, sharingKey, targetedRules } from './resolver';
import type { CampaignHours } from './schedule-rules.schemas';
import type { CampaignRules, DeviceFacts, MessageRules, PlaybackRules } from './types';

/*
 * The manifest ETag stands for the sharing key and what the targeted campaigns play: two screens with one key
 * must play the same segments, and the targeted campaigns alone must decide them. Never one screen's answer for
 * another's (STATIC targeting and RANDOM seeds read the screen's id).
 */

const window = { from: Date.parse('2026-03-27T10:00:00Z'), to: Date.parse('2026-03-30T00:00:00Z') };
const IDS = ['00000000-0000-4000-8000-00000000000a', '00000000-0000-4000-8000-00000000000b', '00000000-0000-4000-8000-00000000000c'];
const FOLDERS = ['10000000-0000-4000-8000-000000000001', '10000000-0000-4000-8000-000000000002'];
const FILTERS = ['20000000-0000-4000-8000-000000000001', '20000000-0000-4000-8000-000000000002'];
const files = [1, 2, 3, 4].map((n) => file(n));

const targeting = fc.oneof(
  fc.record({ deviceSelectionMode: fc.constant('STATIC' as const), deviceIds: fc.subarray(IDS) }),
  fc.record({
    deviceSelectionMode: fc.constant('DYNAMIC' as const),
    deviceGroupIds: fc.subarray(FOLDERS, { minLength: 1 }),
    deviceTagCondition: fc.option(fc.record({ operator: fc.constantFrom('AND' as const, 'OR' as const), tags: fc.subarray(['a', 'b']) }), {
      nil: undefined,
    }),
  }),
  fc.record({ deviceSelectionMode: fc.constant('QUICK_FILTER' as const), deviceQuickFilterId: fc.constantFrom(...FILTERS) }),
);
const play = fc.record({
  orderingMode: fc.constantFrom('DEFAULT' as const, 'ALPHABET' as const, 'RANDOM' as const),
  files: fc.subarray(files, { minLength: 1 }),
  // Hours in the screen's zone: screens in different zones play at different instants.
  affectedHours: fc.option(fc.constant({ allDay: false, from: '09:00', end: '17:00' } as CampaignHours), { nil: undefined }),
});

const messageRules = (id: number) =>
  fc.tuple(targeting, play).map(([t, { affectedHours: _hours, ...p }]): MessageRules => message(id, { ...t, ...p }));
const campaignRules = (id: number) =>
  fc
    .tuple(targeting, play, fc.option(fc.tuple(messageRules(id * 10 + 1), messageRules(id * 10 + 2)), { nil: undefined }))
    .map(([t, p, messages]): CampaignRules =>
      campaign(id, { ...t, ...p, ...(messages ? { type: 'MESSAGE_GROUP', files: [], messageGroups: [group(id, messages)] } : {}) }),
    );
const rules: fc.Arbitrary<PlaybackRules> = fc
  .integer({ min: 1, max: 4 })
  .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => campaignRules(i + 1))).map((campaigns) => ({ campaigns })));
const facts = (id: string): fc.Arbitrary<DeviceFacts> =>
  fc
    .record({
      // Few kinds of screens, so that screens often share facts and the sharing is put to the test.
      timeZone: fc.constantFrom('Europe/Berlin', 'Europe/Berlin', 'Asia/Kolkata'),
      folder: fc.constantFrom(...FOLDERS),
      tags: fc.constantFrom([], ['a']),
      quickFilterIds: fc.constantFrom([], [FILTERS[0]!]),
    })
    .map(({ folder, ...f }) => device({ id, ...f, folderIds: [folder] }));

describe('what tells screens apart', () => {
  it('gives screens with one sharing key the same segments, decided by their targeted campaigns alone', () => {
    fc.assert(
      fc.property(rules, fc.tuple(...IDS.map(facts)), (r, devices) => {
        const alone = new Map(devices.map((d) => [d.id, resolveSegments(r, d, window)]));
        for (const d of devices) expect(resolveSegments(targetedRules(r, d).rules, d, window)).toEqual(alone.get(d.id));
        for (const a of devices)
          for (const b of devices) if (sharingKey(r, a) === sharingKey(r, b)) expect(alone.get(a.id)).toEqual(alone.get(b.id));
      }),
      { numRuns: 300 },
    );
  });

  it('shares a key between screens with the same facts, and tells them apart where STATIC targeting or a RANDOM order reads their id', () => {
    const [a, b] = [device({ id: IDS[0] }), device({ id: IDS[1] })];
    const plain: PlaybackRules = { campaigns: [campaign(1, { files })] };
    expect(sharingKey(plain, a)).toBe(sharingKey(plain, b));

    expect(sharingKey({ campaigns: [campaign(1, { files, deviceSelectionMode: 'STATIC', deviceIds: [a.id] })] }, a)).not.toBe(
      sharingKey({ campaigns: [campaign(1, { files, deviceSelectionMode: 'STATIC', deviceIds: [a.id] })] }, b),
    );
    const random: PlaybackRules = { campaigns: [campaign(1, { files, orderingMode: 'RANDOM' })] };
    expect(sharingKey(random, a)).not.toBe(sharingKey(random, b));
    // A RANDOM channel elsewhere (not targeting these screens) does not stop the sharing.
    const elsewhere: PlaybackRules = {
      campaigns: [
        campaign(1, { files }),
        campaign(2, { files, orderingMode: 'RANDOM', deviceGroupIds: ['30000000-0000-4000-8000-000000000009'] }),
      ],
    };
    expect(sharingKey(elsewhere, a)).toBe(sharingKey(elsewhere, b));
  });
});
