import { describe, expect, it } from 'vitest';
import type { Segment } from '@/server/modules/display/display.schemas';
import { dayNumber, MINUTES_PER_DAY } from './calendar';
import { folderPlays, playWindows } from './folder-plays';

const H = 3_600_000;
const DAY = dayNumber('2030-01-01');
const channel = (campaignId: number, name: string) => ({ campaignId, name, weight: 1, saturation: 1, tags: [], items: [] });
const segment = (from: number, to: number, layer: Segment['layer'], extra: Partial<Segment> = {}): Segment => ({
  from,
  to,
  layer,
  channels: [],
  ...extra,
});

describe('folderPlays', () => {
  it("places each plan at its zone's wall time and merges one channel across plans, with the screens of each", () => {
    // 2030-01-01 00:00 in Berlin and in New York.
    const berlin = Date.UTC(2029, 11, 31, 23);
    const newYork = Date.UTC(2030, 0, 1, 5);
    const plays = folderPlays(
      [
        {
          timeZone: 'Europe/Berlin',
          deviceIds: ['b'],
          segments: [segment(berlin, berlin + 24 * H, 'CHANNELS', { channels: [channel(1, 'Menu'), channel(2, 'News')] })],
        },
        {
          timeZone: 'America/New_York',
          deviceIds: ['a'],
          segments: [
            segment(newYork, newYork + 12 * H, 'CHANNELS', { channels: [channel(1, 'Menu')] }),
            segment(newYork + 12 * H, newYork + 24 * H, 'EMERGENCY', {
              content: { id: 'e', name: 'Evacuate', deviceContentType: 'content' },
            }),
          ],
        },
      ],
      DAY,
      DAY,
    );
    const base = DAY * MINUTES_PER_DAY;
    expect(plays).toEqual([
      { key: 'emergency:e', layer: 'EMERGENCY', name: 'Evacuate', spans: [[base + 720, base + 1440]], deviceIds: ['a'] },
      { key: 'channel:1', layer: 'CHANNELS', name: 'Menu', spans: [[base, base + 1440]], deviceIds: ['a', 'b'] },
      { key: 'channel:2', layer: 'CHANNELS', name: 'News', spans: [[base, base + 1440]], deviceIds: ['b'] },
    ]);
  });

  it('draws an emergency and assigned content from now on, channels over the whole week', () => {
    const start = Date.UTC(2030, 0, 1);
    const now = start + 30 * H; // 2030-01-02 06:00
    const plan = {
      timeZone: 'UTC',
      deviceIds: ['x'],
      segments: [
        segment(start, start + 7 * 24 * H, 'EMERGENCY', {
          content: { id: 'e', name: 'Evacuate', deviceContentType: 'content' as const },
          channels: [],
        }),
        segment(start, start + 24 * H, 'CHANNELS', { channels: [channel(1, 'Menu')] }),
      ],
    };
    const base = DAY * MINUTES_PER_DAY;
    const plays = folderPlays([plan], DAY, DAY + 6, { now });
    expect(plays.find((p) => p.layer === 'EMERGENCY')!.spans).toEqual([[base + 30 * 60, base + 7 * MINUTES_PER_DAY]]);
    expect(plays.find((p) => p.layer === 'CHANNELS')!.spans).toEqual([[base, base + MINUTES_PER_DAY]]);
    // A week that is over shows no emergency at all.
    expect(folderPlays([plan], DAY, DAY + 6, { now: start + 8 * 24 * H }).map((p) => p.layer)).toEqual(['CHANNELS']);
  });

  it("draws a schedule the folder's list does not hold (one on a sub-folder), not one it lists", () => {
    const start = Date.UTC(2030, 0, 1, 9);
    const content = { id: 'c', name: 'Lunch menu', deviceContentType: 'content' as const };
    const plan = {
      timeZone: 'UTC',
      deviceIds: ['x', 'y'],
      segments: [
        segment(start, start + 2 * H, 'SCHEDULE', { content, schedule: { id: 7, name: 'Kitchen lunch' } }),
        segment(start + 2 * H, start + 3 * H, 'SCHEDULE', { content, schedule: { id: 8, name: 'Folder own' } }),
      ],
    };
    const base = DAY * MINUTES_PER_DAY;
    expect(folderPlays([plan], DAY, DAY, { listed: new Set([8]) })).toEqual([
      {
        key: 'schedule:7',
        layer: 'SCHEDULE',
        name: 'Kitchen lunch',
        spans: [[base + 540, base + 660]],
        deviceIds: ['x', 'y'],
        scheduleId: 7,
      },
    ]);
    expect(folderPlays([plan], DAY, DAY, { listed: new Set([7, 8]) })).toEqual([]);
  });

  it('leaves out what lies outside the days and what plays nothing', () => {
    const start = Date.UTC(2030, 0, 2);
    expect(
      folderPlays(
        [
          {
            timeZone: 'UTC',
            deviceIds: ['x'],
            segments: [segment(start, start + H, 'CHANNELS', { channels: [channel(1, 'Menu')] }), segment(0, start, 'NONE')],
          },
        ],
        DAY,
        DAY,
      ),
    ).toEqual([]);
  });
});

describe('playWindows', () => {
  it('covers the days in every zone with windows of at most 7 days', () => {
    const windows = playWindows(DAY, DAY + 6);
    expect(windows[0]!.from).toBe(DAY * 86_400_000 - 14 * H);
    expect(windows.at(-1)!.to).toBe((DAY + 7) * 86_400_000 + 14 * H);
    expect(windows.every((w) => w.to - w.from <= 7 * 24 * H)).toBe(true);
    expect(windows.slice(1).every((w, i) => w.from === windows[i]!.to)).toBe(true);
  });
});
