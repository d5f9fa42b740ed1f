import type { MediaFile, UsageEntry } from '@/lib/api/files';

/**
 * Spec 2 "Deletion preflight": stop when the file is read-only or a channel, schedule or sub-channel
 * uses it; warn about broken references for other content; playlist-only usage is cleaned up with
 * `removeFromPlaylists=true`.
 */
export type Preflight = {
  file: Pick<MediaFile, 'id' | 'name'>;
  verdict: 'blocked' | 'warn' | 'clear';
  /** Why, as catalogue keys (`media.preflight.*`) with the names of what uses the file; the dialog words them. */
  reasons: PreflightReason[];
  /** Every content usage is a playlist: `removeFromPlaylists` cleans them all up. */
  playlistOnly: boolean;
};

/** A name is null when the usage entry has neither a name nor an id. */
export type PreflightReason =
  { key: 'readOnly' } | { key: 'channels' | 'schedules' | 'subChannels' | 'playlists' | 'content'; names: Array<string | null> };

function names(entries: UsageEntry[] | undefined): Array<string | null> {
  return (entries ?? []).map((e) => (typeof e.name === 'string' ? e.name : typeof e.id === 'string' ? e.id : null));
}

function isPlaylist(entry: UsageEntry): boolean {
  const type = String(entry.deviceContentType ?? entry.type ?? '').toUpperCase();

  return type.includes('PLAYLIST') || type.includes('LOOP');
}

export function preflight(file: MediaFile): Preflight {
  const reasons: PreflightReason[] = [];
  if (file.readOnly) reasons.push({ key: 'readOnly' });
  const channels = names(file.campaignUsageDetails);
  const schedules = names(file.topLevelCampaignUsageDetails);
  const subChannels = names(file.messageUsageDetails);
  if (channels.length) reasons.push({ key: 'channels', names: channels });
  if (schedules.length) reasons.push({ key: 'schedules', names: schedules });
  if (subChannels.length) reasons.push({ key: 'subChannels', names: subChannels });
  if (reasons.length) return { file, verdict: 'blocked', reasons, playlistOnly: false };

  const content = file.usageDetails?.contentUsage ?? [];
  if (content.length === 0) return { file, verdict: 'clear', reasons, playlistOnly: false };
  const playlistOnly = content.every(isPlaylist);
  reasons.push({ key: playlistOnly ? 'playlists' : 'content', names: names(content) });

  return { file, verdict: 'warn', reasons, playlistOnly };
}
