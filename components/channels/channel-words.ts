import type { Campaign, CampaignAiring, CampaignType } from '@/lib/api/campaigns';
import { formatInZone } from '@/lib/schedule/timeline';
import type { playbackSlotItemTypeValues } from '@/server/modules/campaigns/campaigns.schemas';

/** What one item of a channel's turn is (`playbackSlotItemType`, spec 2). */
export type SlotItemType = (typeof playbackSlotItemTypeValues)[number];

/** How the console names each channel type (spec 2 "Campaign" types a channel is created with). */
export const CHANNEL_TYPES: ReadonlyArray<{ value: CampaignType; label: string; hint: string }> = [
  { value: 'CONTENT', label: 'Slides and playlists', hint: 'Plays the slides and playlists you pick' },
  { value: 'CONTENT_DYNAMIC', label: 'Content folder', hint: 'Plays what is in content folders, also what is added later' },
  { value: 'ASSETS_STATIC', label: 'Media', hint: 'Plays the images and videos you pick' },
  { value: 'ASSETS_DYNAMIC', label: 'Media folder', hint: 'Plays the files of media folders, also those added later' },
  { value: 'MESSAGE_GROUP', label: 'Message groups', hint: 'Plays the messages (sub-channels) of message groups' },
  { value: 'CONTENT_QUICK_FILTER', label: 'Content quick filter', hint: 'Plays the content a saved content filter matches' },
  { value: 'ASSET_QUICK_FILTER', label: 'Media quick filter', hint: 'Plays the files a saved media filter matches' },
];

/** `playbackSlotItemType` (spec 2): what one item of a turn is, in the console's words. */
export const SLOT_ITEM_TYPES: ReadonlyArray<{ value: SlotItemType; label: string }> = [
  { value: 'CONTENT', label: 'A whole content' },
  { value: 'CONTENT_PAGE', label: 'One page of a content' },
  { value: 'SIMPLE_LOOP', label: 'A whole playlist' },
  { value: 'SIMPLE_LOOP_SLIDE', label: 'One slide of a playlist' },
  { value: 'MESSAGE_GROUP', label: 'A whole message group' },
  { value: 'MESSAGE', label: 'A whole sub-channel' },
  { value: 'MESSAGE_ITEM', label: 'One item of a sub-channel' },
];

export const typeLabel = (type: string | undefined) => CHANNEL_TYPES.find((t) => t.value === type)?.label ?? type ?? '—';

/** `yyyy-MM-dd` of an epoch-ms day as the API answers it (00:00 UTC of the day). */
export const dayOf = (epochMs: number | undefined | null) => (epochMs == null ? '' : new Date(epochMs).toISOString().slice(0, 10));

export type ChannelStatus = { label: string; tone: 'brand' | 'neutral' | 'warning' | 'danger' };

/** Disabled wins; then expired (validTo before today) and not yet valid (validFrom after today), in the browser's date. */
export function channelStatus(channel: Pick<Campaign, 'enabled' | 'validFrom' | 'validTo'>, today = localToday()): ChannelStatus {
  if (channel.enabled === false) return { label: 'Disabled', tone: 'neutral' };
  if (channel.validTo != null && dayOf(channel.validTo) < today) return { label: 'Expired', tone: 'danger' };
  if (channel.validFrom != null && dayOf(channel.validFrom) > today) return { label: `From ${dayOf(channel.validFrom)}`, tone: 'warning' };

  return { label: 'Enabled', tone: 'brand' };
}

export function localToday(now = new Date()): string {
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

const zone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** "On air until 18:00", "Fri 14 Jun, 08:00", or why there is none (switched off, no screens, nothing to play). */
export function airingText(airing: CampaignAiring | undefined, enabled: boolean | undefined, screens: number | undefined, now = Date.now()): string {
  if (enabled === false) return 'Switched off';
  if (screens === 0) return 'No screens';
  if (!airing) return '…';
  if (!airing.hasItems) return 'Nothing to play';
  if (airing.nextAiring === null) return 'Not in the next 14 days';
  const time = (ms: number) => formatInZone(ms, zone(), { hour: '2-digit', minute: '2-digit' });
  if (airing.nextAiring <= now + 60_000) return airing.airingEnd === null ? 'On air now' : `On air until ${time(airing.airingEnd)}`;

  return formatInZone(airing.nextAiring, zone(), { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
}
