'use client';

import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { useDeviceExplain } from '@/lib/api/devices';
import { fromLocalInput, toLocalInput } from '@/lib/schedule/timeline';
import type { PlaybackExplanation } from '@/server/modules/display/display.schemas';

type Reason = PlaybackExplanation['campaigns'][number]['reasons'][number];

/** The reason codes of spec 4 §4 in the console's words. */
const REASONS: Record<Reason, string> = {
  DISABLED: 'switched off',
  NOT_TARGETED: 'not aimed at this screen',
  NOT_VALID_YET: 'not valid yet',
  EXPIRED: 'expired',
  OUTSIDE_HOURS: 'outside its days or hours',
  OUTSIDE_DATE_RANGES: 'outside its date ranges',
  EXCLUDED_RANGE: 'in an excluded date range',
  PARENT_NOT_ELIGIBLE: 'its channel does not play',
  NO_PLAYABLE_ITEMS: 'nothing in it can play',
};

/**
 * What an eligible campaign is told when a higher layer plays instead (spec 4 §4: an emergency replaces
 * everything; a schedule or the assigned content replaces the channels): eligible, yet not on screen.
 */
function overriddenBy(layer: PlaybackExplanation['layer'], level: 'WIDGET' | 'TOP'): string | null {
  if (layer === 'EMERGENCY') return 'Overridden by the emergency';
  if (level === 'WIDGET' && layer === 'SCHEDULE') return 'Overridden by a schedule';
  if (level === 'WIDGET' && layer === 'CONTENT') return 'Overridden by the assigned content';

  return null;
}

const LAYER_WORDS: Record<PlaybackExplanation['layer'], string> = {
  EMERGENCY: 'emergency content',
  SCHEDULE: 'a schedule',
  CONTENT: 'its assigned content',
  CHANNELS: 'channels',
  NONE: 'nothing',
};

/**
 * "Why isn't this playing?": every channel and schedule of the tenant at a chosen moment of the screen's own
 * time, with the reasons one does not play (`GET /api/v2/device/{id}/schedule/explain`).
 */
export function ScreenExplain({ deviceId, timeZone }: { deviceId: string; timeZone: string }) {
  const [at, setAt] = useState(() => Math.floor(Date.now() / 60_000) * 60_000);
  const [text, setText] = useState(() => toLocalInput(at, timeZone));
  const explanation = useDeviceExplain(deviceId, at);
  const campaigns = explanation.data?.campaigns ?? [];

  return (
    <Card className="p-5">
      <div className="mb-3 flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 className="text-sm font-semibold text-zinc-900">Why a channel plays or not</h2>
          <p className="text-xs text-zinc-500">At a moment of the screen’s time ({timeZone})</p>
        </div>
        <div className="w-56">
          <Input
            type="datetime-local"
            aria-label="Moment"
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              const next = fromLocalInput(e.target.value, timeZone);
              if (next !== null) setAt(next);
            }}
          />
        </div>
      </div>
      {explanation.isPending ? <Spinner className="m-4 size-5" label="Loading" /> : null}
      {explanation.isError ? <p className="text-sm text-red-700">The explanation could not be loaded.</p> : null}
      {explanation.data ? (
        <>
          <p className="mb-2 text-sm text-zinc-700" data-testid="explain-layer">
            The screen shows {LAYER_WORDS[explanation.data.layer]} then.
          </p>
          {campaigns.length === 0 ? <p className="text-sm text-zinc-500">This tenant has no channels or schedules yet.</p> : null}
          <ul className="divide-y divide-zinc-100 text-sm" aria-label="Channels and schedules">
            {campaigns.map((c) => {
              const overridden = c.eligible ? overriddenBy(explanation.data.layer, c.level) : null;

              return (
                <li key={c.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-1.5" data-testid="explain-campaign">
                  <span className="min-w-0 flex-1 truncate text-zinc-900">
                    {c.name} <span className="text-xs text-zinc-500">{c.level === 'TOP' ? 'schedule' : 'channel'}</span>
                  </span>
                  {overridden ? <Badge tone="warning">{overridden}</Badge> : c.eligible ? <Badge tone="success">Plays</Badge> : <Badge>Does not play</Badge>}
                  {c.reasons.length > 0 ? <span className="w-full text-xs text-zinc-500">{c.reasons.map((r) => REASONS[r]).join(', ')}</span> : null}
                </li>
              );
            })}
          </ul>
        </>
      ) : null}
    </Card>
  );
}
