'use client';

import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { useDeviceExplain } from '@/lib/api/devices';
import { useLabel } from '@/lib/i18n/labels';
import { fromLocalInput, toLocalInput } from '@/lib/schedule/timeline';
import type { PlaybackExplanation } from '@/server/modules/display/display.schemas';

/**
 * What an eligible campaign is told when a higher layer plays instead (spec 4 §4: an emergency replaces
 * everything; a schedule or the assigned content replaces the channels): eligible, yet not on screen.
 */
function overriddenBy(layer: PlaybackExplanation['layer'], level: 'WIDGET' | 'TOP'): 'emergency' | 'schedule' | 'content' | null {
  if (layer === 'EMERGENCY') return 'emergency';
  if (level === 'WIDGET' && layer === 'SCHEDULE') return 'schedule';
  if (level === 'WIDGET' && layer === 'CONTENT') return 'content';

  return null;
}

/**
 * "Why isn't this playing?": every channel and schedule of the tenant at a chosen moment of the screen's own
 * time, with the reasons one does not play (`GET /api/v2/device/{id}/schedule/explain`).
 */
export function ScreenExplain({ deviceId, timeZone }: { deviceId: string; timeZone: string }) {
  const t = useTranslations('devices');
  const label = useLabel();
  const [at, setAt] = useState(() => Math.floor(Date.now() / 60_000) * 60_000);
  const [text, setText] = useState(() => toLocalInput(at, timeZone));
  const explanation = useDeviceExplain(deviceId, at);
  const campaigns = explanation.data?.campaigns ?? [];

  return (
    <Card className="p-5">
      <div className="mb-3 flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 className="text-sm font-semibold text-zinc-900">{t('explain.heading')}</h2>
          <p className="text-xs text-zinc-500">{t('explain.moment', { timeZone })}</p>
        </div>
        <div className="w-56">
          <Input
            type="datetime-local"
            aria-label={t('explain.momentLabel')}
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              const next = fromLocalInput(e.target.value, timeZone);
              if (next !== null) setAt(next);
            }}
          />
        </div>
      </div>
      {explanation.isPending ? <Spinner className="m-4 size-5" label={t('loading')} /> : null}
      {explanation.isError ? <p className="text-sm text-red-700">{t('explain.loadError')}</p> : null}
      {explanation.data ? (
        <>
          <p className="mb-2 text-sm text-zinc-700" data-testid="explain-layer">
            {t('explain.shows', { layer: explanation.data.layer })}
          </p>
          {campaigns.length === 0 ? <p className="text-sm text-zinc-500">{t('explain.empty')}</p> : null}
          <ul className="divide-y divide-zinc-100 text-sm" aria-label={t('explain.list')}>
            {campaigns.map((c) => {
              const overridden = c.eligible ? overriddenBy(explanation.data.layer, c.level) : null;

              return (
                <li key={c.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-1.5" data-testid="explain-campaign">
                  <span className="min-w-0 flex-1 truncate text-zinc-900">
                    {c.name}{' '}
                    <span className="text-xs text-zinc-500">
                      {c.level === 'TOP' ? t('explain.kindSchedule') : t('explain.kindChannel')}
                    </span>
                  </span>
                  {overridden ? (
                    <Badge tone="warning">{t(`explain.${overridden}`)}</Badge>
                  ) : c.eligible ? (
                    <Badge tone="success">{t('explain.plays')}</Badge>
                  ) : (
                    <Badge>{t('explain.doesNotPlay')}</Badge>
                  )}
                  {c.reasons.length > 0 ? (
                    <span className="w-full text-xs text-zinc-500">{c.reasons.map((r) => label('eligibilityReason', r)).join(', ')}</span>
                  ) : null}
                </li>
              );
            })}
          </ul>
        </>
      ) : null}
    </Card>
  );
}
