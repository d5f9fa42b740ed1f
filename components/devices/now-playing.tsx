'use client';

import { useTranslations } from 'next-intl';
import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { Badge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { useDevicesNowPlaying } from '@/lib/api/devices';
import { useLabel } from '@/lib/i18n/labels';
import type { DeviceNowPlaying } from '@/server/modules/display/display.schemas';

const names = (items: readonly { name: string }[]) => items.map((i) => i.name).join(', ');

/** The names that decide the layer: the emergency or assigned content, the schedule with its content, the channels. */
function layerNames(now: DeviceNowPlaying): string {
  if (now.layer === 'SCHEDULE') return [now.schedule?.name, now.content?.name].filter(Boolean).join(' · ');
  if (now.layer === 'CHANNELS') return names(now.channels);

  return now.content?.name ?? '';
}

const NowPlayingContext = createContext<{ byId: ReadonlyMap<string, DeviceNowPlaying>; isPending: boolean; isError: boolean } | null>(null);

/** Asks what the page's screens play now in one request and hands each row its answer. */
export function NowPlayingProvider({ deviceIds, children }: { deviceIds: readonly string[]; children: ReactNode }) {
  const query = useDevicesNowPlaying(deviceIds);
  const value = useMemo(
    () => ({ byId: new Map((query.data?.devices ?? []).map((d) => [d.deviceId, d])), isPending: query.isPending, isError: query.isError }),
    [query.data, query.isPending, query.isError],
  );

  return <NowPlayingContext.Provider value={value}>{children}</NowPlayingContext.Provider>;
}

/**
 * A screen's "Shows" in the list and the grid: the layer and its names, the channels beside a content layer,
 * and the assigned content as its own line when another layer covers it.
 */
export function NowPlayingSummary({ deviceId, className }: { deviceId: string; className?: string }) {
  const t = useTranslations('devices.now');
  const label = useLabel();
  const context = useContext(NowPlayingContext);
  const now = context?.byId.get(deviceId);
  if (!now) return <span className="text-xs text-zinc-400">{context?.isError ? t('notKnown') : '…'}</span>;
  const main = layerNames(now);
  const layer = label('layer', now.layer);

  return (
    <div className={className} data-testid="now-playing" data-layer={now.layer}>
      <p className="truncate text-xs text-zinc-700" title={main ? t('title', { layer, names: main }) : layer}>
        <span className="font-medium text-zinc-900">{layer}</span>
        {main ? `: ${main}` : null}
      </p>
      {now.layer !== 'CHANNELS' && now.channels.length > 0 ? (
        <p className="truncate text-xs text-zinc-500">{t('channels', { names: names(now.channels) })}</p>
      ) : null}
      {now.assignedContent && now.layer !== 'CONTENT' ? (
        <p className="truncate text-xs text-zinc-500">{t('assigned', { name: now.assignedContent.name })}</p>
      ) : null}
    </div>
  );
}

function Line({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[10rem_minmax(0,1fr)] gap-2 py-1.5 text-sm">
      <dt className="text-zinc-500">{label}</dt>
      <dd className="min-w-0 text-zinc-900">{children}</dd>
    </div>
  );
}

/** The screen page's "Plays now": the layer, what decides it, every channel with its sub-channels, and the assigned content. */
export function NowPlayingCard({ deviceId }: { deviceId: string }) {
  const ids = useMemo(() => [deviceId], [deviceId]);
  const query = useDevicesNowPlaying(ids);
  const now = query.data?.devices[0];
  const t = useTranslations('devices');
  const label = useLabel();

  return (
    <Card className="p-5">
      <h2 className="mb-2 text-sm font-semibold text-zinc-900">{t('now.heading')}</h2>
      {query.isPending ? <Spinner className="m-2 size-5" label={t('loading')} /> : null}
      {query.isError ? <p className="text-sm text-red-700">{t('now.loadError')}</p> : null}
      {now ? (
        <dl className="divide-y divide-zinc-100" data-testid="plays-now" data-layer={now.layer}>
          <Line label={t('now.layer')}>
            <Badge tone={now.layer === 'EMERGENCY' ? 'danger' : now.layer === 'NONE' ? undefined : 'success'}>
              {label('layer', now.layer)}
            </Badge>
          </Line>
          {now.layer === 'EMERGENCY' ? <Line label={t('now.emergencyContent')}>{now.content?.name ?? '—'}</Line> : null}
          {now.layer === 'SCHEDULE' ? (
            <Line label={t('now.schedule')}>
              {now.schedule?.name ?? '—'}
              {now.content ? <span className="text-zinc-500"> · {now.content.name}</span> : null}
            </Line>
          ) : null}
          <Line label={t('now.channelsLabel')}>
            {now.channels.length === 0 ? (
              <span className="text-zinc-500">{t('now.noChannel')}</span>
            ) : (
              <ul aria-label={t('now.channelsPlaying')} className="space-y-0.5">
                {now.channels.map((c) => (
                  <li key={c.id}>
                    {c.name}
                    {c.subChannels.length > 0 ? (
                      <span className="text-xs text-zinc-500"> · {t('now.subChannels', { names: names(c.subChannels) })}</span>
                    ) : null}
                  </li>
                ))}
              </ul>
            )}
          </Line>
          <Line label={t('now.assignedContent')}>
            {now.assignedContent ? (
              <>
                {now.assignedContent.name}
                {now.layer !== 'CONTENT' ? (
                  <span className="text-xs text-zinc-500"> {t('now.coveredBy', { layer: now.layer })}</span>
                ) : null}
              </>
            ) : (
              <span className="text-zinc-500">{t('now.none')}</span>
            )}
          </Line>
        </dl>
      ) : null}
    </Card>
  );
}
