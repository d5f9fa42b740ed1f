import type { MediaFile, UsageEntry } from '@/lib/api/files';

/**
 * Spec 2 "Deletion preflight": stop when the file is read-only or a channel, schedule or sub-channel
 * uses it; warn about broken references for other content; playlist-only usage is cleaned up with
 * `removeFromPlaylists=true`.
 */
export type Preflight = {
  file: Pick<MediaFile, 'id' | 'name'>;
  verdict: 'blocked' | 'warn' | 'clear';
  reasons: string[];
  /** Every content usage is a playlist: `removeFromPlaylists` cleans them all up. */
  playlistOnly: boolean;
};

function names(entries: UsageEntry[] | undefined): string[] {
  return (entries ?? []).map((e) => (typeof e.name === 'string' ? e.name : typeof e.id === 'string' ? e.id : 'unnamed'));
}

function isPlaylist(entry: UsageEntry): boolean {
  const type = String(entry.deviceContentType ?? entry.type ?? '').toUpperCase();

  return type.includes('PLAYLIST') || type.includes('LOOP');
}

function list(items: string[]): string {
  return items.length > 3 ? `${items.slice(0, 3).join(', ')} and ${items.length - 3} more` : items.join(', ');
}

export function preflight(file: MediaFile): Preflight {
  const reasons: string[] = [];
  if (file.readOnly) reasons.push('You may only read this file (a read-only team assignment).');
  const channels = names(file.campaignUsageDetails);
  const schedules = names(file.topLevelCampaignUsageDetails);
  const subChannels = names(file.messageUsageDetails);
  if (channels.length) reasons.push(`Used by channels: ${list(channels)}.`);
  if (schedules.length) reasons.push(`Used by schedules: ${list(schedules)}.`);
  if (subChannels.length) reasons.push(`Used by sub-channels: ${list(subChannels)}.`);
  if (reasons.length) return { file, verdict: 'blocked', reasons, playlistOnly: false };

  const content = file.usageDetails?.contentUsage ?? [];
  if (content.length === 0) return { file, verdict: 'clear', reasons, playlistOnly: false };
  const playlistOnly = content.every(isPlaylist);
  reasons.push(
    playlistOnly
      ? `In ${content.length === 1 ? 'a playlist' : `${content.length} playlists`}: ${list(names(content))}.`
      : `Referenced by content that will show a broken reference: ${list(names(content))}.`,
  );

  return { file, verdict: 'warn', reasons, playlistOnly };
}
