'use client';

import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { useDevicePreviews, type Device } from '@/lib/api/devices';
import { useFormat } from '@/lib/i18n/use-format';

/**
 * The newest screenshot the screen sent: a capture of what it showed when it was taken (the player draws its
 * whole screen, player/capture.ts), with that time as the screen reported it. "Take screenshot" in the commands
 * asks for a new one.
 */
export function ScreenshotCard({ device }: { device: Device }) {
  const t = useTranslations('devices.screenshot');
  const format = useFormat();
  const [failed, setFailed] = useState<string | null>(null);
  const path = device.previewPath;
  const previews = useDevicePreviews(device.id, path);
  const newest = previews.data?.[0];

  return (
    <Card className="p-5">
      <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="text-sm font-semibold text-zinc-900">{t('heading')}</h2>
        {newest ? (
          <p className="flex items-center gap-2 text-xs text-zinc-500">
            <span data-testid="screenshot-taken-at">
              {t.rich('captured', {
                at: format.dateTime(newest.takenAt),
                time: (chunks) => <time dateTime={newest.takenAt}>{chunks}</time>,
              })}
            </span>
            {newest.highRes ? <Badge>{t('highRes')}</Badge> : null}
          </p>
        ) : null}
      </div>
      <div className="flex aspect-video items-center justify-center overflow-hidden rounded-md bg-zinc-100">
        {path && failed !== path ? (
          // eslint-disable-next-line @next/next/no-img-element -- an authenticated API path
          <img
            src={path}
            alt={t('alt', { name: device.name || t('theScreen') })}
            className="size-full bg-zinc-900 object-contain"
            onError={() => setFailed(path)}
            data-testid="screen-screenshot"
          />
        ) : (
          <span className="text-sm text-zinc-500">{t('none')}</span>
        )}
      </div>
      {path ? <p className="mt-2 text-xs text-zinc-500">{t('about')}</p> : null}
    </Card>
  );
}
