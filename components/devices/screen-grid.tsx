'use client';

import { useTranslations } from 'next-intl';
import { useState, type ReactNode } from 'react';
import { deviceDrag } from '@/components/devices/device-drag';
import { DeviceStatus } from '@/components/devices/device-status';
import { ScreenAlertBadge } from '@/components/devices/screen-alert-badge';
import { NowPlayingSummary } from '@/components/devices/now-playing';
import { Badge } from '@/components/ui/badge';
import { CardGrid, SelectableCard } from '@/components/ui/card-grid';
import { MonitorIcon } from '@/components/ui/icons';
import type { Device } from '@/lib/api/devices';
import { useFormat } from '@/lib/i18n/use-format';

type Props = {
  devices: Device[];
  selected: ReadonlySet<string>;
  dimmed: boolean;
  /** Selection and dragging feed the batch commands and moves, which need TECHNICIAN. */
  selectable: boolean;
  onOpen: (device: Device) => void;
  onToggle: (id: string, options: { range: boolean }) => void;
  menuOf?: (device: Device) => ReactNode;
};

/** A page of screens as cards: the newest screenshot (or a placeholder), status, name, last activity, content and tags. */
export function ScreenGrid({ devices, selected, dimmed, selectable, onOpen, onToggle, menuOf }: Props) {
  const t = useTranslations('devices');
  const format = useFormat();

  return (
    <CardGrid label={t('grid.label')} dimmed={dimmed}>
      {devices.map((device) => {
        const name = device.name || t('unnamed');
        const isSelected = selected.has(device.id);
        const dragIds = isSelected ? [...selected] : [device.id];

        return (
          <SelectableCard
            key={device.id}
            testId="screen-card"
            name={name}
            selected={isSelected}
            selecting={selected.size > 0}
            selectable={selectable}
            onOpen={() => onOpen(device)}
            onToggle={(options) => onToggle(device.id, options)}
            onDragStart={
              selectable
                ? (e) =>
                    deviceDrag.set(
                      e,
                      { deviceIds: dragIds, deviceGroupIds: [] },
                      dragIds.length > 1 ? t('screens', { count: dragIds.length }) : name,
                    )
                : undefined
            }
            menu={menuOf?.(device)}
            preview={
              <>
                <Preview path={device.previewPath} />
                {device.emergencyStatus ? (
                  <span className="absolute right-2 bottom-2 rounded bg-red-600 px-1.5 py-0.5 text-[10px] font-medium tracking-wide text-white uppercase">
                    {t('emergency')}
                  </span>
                ) : null}
              </>
            }
          >
            <div className="flex items-center justify-between gap-2">
              <DeviceStatus device={device} className="text-xs" />
              <ScreenAlertBadge device={device} />
            </div>
            <p className="truncate text-xs text-zinc-500" title={t('lastActivity')}>
              {format.dateTime(device.lastActivity, t('grid.neverHeard'))}
            </p>
            <NowPlayingSummary deviceId={device.id} className="min-w-0" />
            {device.tags?.length ? (
              <div className="flex gap-1 overflow-hidden" title={device.tags.join(', ')}>
                {device.tags.slice(0, 2).map((tag) => (
                  <Badge key={tag} className="min-w-0 truncate">
                    {tag}
                  </Badge>
                ))}
                {device.tags.length > 2 ? <Badge className="shrink-0">+{device.tags.length - 2}</Badge> : null}
              </div>
            ) : null}
          </SelectableCard>
        );
      })}
    </CardGrid>
  );
}

/** The newest screenshot; a placeholder before the first one, or when it does not load. */
function Preview({ path }: { path: string | undefined }) {
  const t = useTranslations('devices.grid');
  const [failed, setFailed] = useState<string | null>(null);
  if (path && failed !== path) {
    return (
      // eslint-disable-next-line @next/next/no-img-element -- an authenticated API path
      <img
        src={path}
        alt=""
        loading="lazy"
        draggable={false}
        onError={() => setFailed(path)}
        className="size-full bg-zinc-900 object-contain"
      />
    );
  }

  return (
    <div
      className="flex size-full flex-col items-center justify-center gap-1 bg-zinc-100 text-zinc-400"
      data-testid="screen-preview-placeholder"
    >
      <MonitorIcon className="size-10" />
      <span className="text-xs">{t('noScreenshot')}</span>
    </div>
  );
}
