'use client';

import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { useDevicePreviews, type Device } from '@/lib/api/devices';
import { formatDateTime } from '@/lib/format';

/**
 * The newest screenshot the screen sent: a capture of what it showed when it was taken (the player draws its
 * whole screen, player/capture.ts), with that time as the screen reported it. "Take screenshot" in the commands
 * asks for a new one.
 */
export function ScreenshotCard({ device }: { device: Device }) {
  const [failed, setFailed] = useState<string | null>(null);
  const path = device.previewPath;
  const previews = useDevicePreviews(device.id, path);
  const newest = previews.data?.[0];

  return (
    <Card className="p-5">
      <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="text-sm font-semibold text-zinc-900">Latest screenshot</h2>
        {newest ? (
          <p className="flex items-center gap-2 text-xs text-zinc-500">
            <span data-testid="screenshot-taken-at">
              Captured <time dateTime={newest.takenAt}>{formatDateTime(newest.takenAt)}</time>
            </span>
            {newest.highRes ? <Badge>High resolution</Badge> : null}
          </p>
        ) : null}
      </div>
      <div className="flex aspect-video items-center justify-center overflow-hidden rounded-md bg-zinc-100">
        {path && failed !== path ? (
          // eslint-disable-next-line @next/next/no-img-element -- an authenticated API path
          <img src={path} alt={`Screenshot of ${device.name || 'the screen'}`} className="size-full bg-zinc-900 object-contain" onError={() => setFailed(path)} data-testid="screen-screenshot" />
        ) : (
          <span className="text-sm text-zinc-500">No screenshot yet. Use “Take screenshot” to ask the screen for one.</span>
        )}
      </div>
      {path ? <p className="mt-2 text-xs text-zinc-500">A capture of the whole screen as it showed then: slides, text, images and video frames. Web pages show as a labelled box.</p> : null}
    </Card>
  );
}
