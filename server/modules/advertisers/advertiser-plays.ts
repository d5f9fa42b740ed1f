import type { Executor } from '@/server/db/client';
import { definePlugPoint } from '@/server/plug-point';

/*
 * Where the advertiser's proof-of-play export reads its plays. Proof of play owns the plays and already
 * depends on this module (a channel's advertiser), so it plugs its reader in here (its manifest) instead of
 * this module importing it: no import cycle, and the export names no other module.
 */

/** One play of the advertiser's channels, as the CSV lists it; `deviceId` and `eventId` order plays of one instant. */
export type AdvertiserPlay = {
  startedAt: Date;
  endedAt: Date;
  durationMs: number;
  deviceId: string;
  eventId: string;
  deviceName: string | null;
  campaignName: string | null;
  contentName: string | null;
  fileName: string | null;
};

/** An advertiser's plays over a period, summed (its public page): totals, per UTC day (newest first), per screen (most plays first). */
export type AdvertiserPlaySummary = {
  total: { plays: number; durationMs: number; screens: number };
  days: Array<{ day: string; plays: number; durationMs: number }>;
  screens: Array<{ deviceName: string | null; plays: number; durationMs: number }>;
};

export type AdvertiserPlaySource = {
  name: string;
  /** The advertiser's plays that started in [from, to), summed. */
  summary: (db: Executor, input: { customerId: number; advertiserId: string; from: Date; to: Date }) => Promise<AdvertiserPlaySummary>;
  /** Up to `limit` plays, newest first (start, then device and event id descending), after `after` when given. */
  batch: (
    db: Executor,
    input: { customerId: number; advertiserId: string; after?: AdvertiserPlay; limit: number },
  ) => Promise<AdvertiserPlay[]>;
};

export const advertiserPlaySources = definePlugPoint<AdvertiserPlaySource>('advertiserPlays', (s) => s.name);
