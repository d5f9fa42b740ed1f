import { useLocale, useTranslations } from 'next-intl';
import { useCallback, useMemo } from 'react';
import type { Campaign, CampaignAiring } from '@/lib/api/campaigns';
import { formatInZone } from '@/lib/schedule/timeline';
import type { playbackSlotItemTypeValues } from '@/server/modules/campaigns/campaigns.schemas';

/** What one item of a channel's turn is (`playbackSlotItemType`, spec 2). */
export type SlotItemType = (typeof playbackSlotItemTypeValues)[number];

/** `yyyy-MM-dd` of an epoch-ms day as the API answers it (00:00 UTC of the day). */
export const dayOf = (epochMs: number | undefined | null) => (epochMs == null ? '' : new Date(epochMs).toISOString().slice(0, 10));

export type ChannelStatus = {
  status: 'disabled' | 'expired' | 'from' | 'enabled';
  from?: string;
  tone: 'brand' | 'neutral' | 'warning' | 'danger';
};

/** Disabled wins; then expired (validTo before today) and not yet valid (validFrom after today), in the browser's date. */
export function channelStatus(channel: Pick<Campaign, 'enabled' | 'validFrom' | 'validTo'>, today = localToday()): ChannelStatus {
  if (channel.enabled === false) return { status: 'disabled', tone: 'neutral' };
  if (channel.validTo != null && dayOf(channel.validTo) < today) return { status: 'expired', tone: 'danger' };
  if (channel.validFrom != null && dayOf(channel.validFrom) > today)
    return { status: 'from', from: dayOf(channel.validFrom), tone: 'warning' };

  return { status: 'enabled', tone: 'brand' };
}

function localToday(now = new Date()): string {
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

/** When a channel airs next, or why it does not (switched off, no screens, nothing to play); `pending` while unknown. */
export type Airing =
  { kind: 'off' | 'noScreens' | 'pending' | 'nothing' | 'notSoon' | 'onAirNow' } | { kind: 'onAirUntil' | 'next'; at: number };

export function airingOf(
  airing: CampaignAiring | undefined,
  enabled: boolean | undefined,
  screens: number | undefined,
  now = Date.now(),
): Airing {
  if (enabled === false) return { kind: 'off' };
  if (screens === 0) return { kind: 'noScreens' };
  if (!airing) return { kind: 'pending' };
  if (!airing.hasItems) return { kind: 'nothing' };
  if (airing.nextAiring === null) return { kind: 'notSoon' };
  if (airing.nextAiring <= now + 60_000)
    return airing.airingEnd === null ? { kind: 'onAirNow' } : { kind: 'onAirUntil', at: airing.airingEnd };

  return { kind: 'next', at: airing.nextAiring };
}

export const isOnAir = (airing: Airing) => airing.kind === 'onAirNow' || airing.kind === 'onAirUntil';

const zone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The words of a channel's status and next airing in the console's language: "On air until 18:00", "Fri 14 Jun, 08:00". */
export function useChannelWords() {
  const t = useTranslations('channels');
  const locale = useLocale();

  const status = useCallback(
    (s: ChannelStatus) => (s.status === 'from' ? t('status.from', { date: s.from ?? '' }) : t(`status.${s.status}`)),
    [t],
  );
  const airing = useCallback(
    (a: Airing) => {
      if (a.kind === 'pending') return '…';
      if (a.kind === 'onAirUntil')
        return t('airing.onAirUntil', { time: formatInZone(a.at, zone(), { hour: '2-digit', minute: '2-digit' }, locale) });
      if (a.kind === 'next')
        return formatInZone(a.at, zone(), { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' }, locale);

      return t(`airing.${a.kind}`);
    },
    [t, locale],
  );

  return useMemo(() => ({ status, airing }), [status, airing]);
}
