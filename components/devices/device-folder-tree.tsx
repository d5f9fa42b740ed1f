'use client';

import { useTranslations } from 'next-intl';
import { deviceDrag, type DeviceDragItems } from '@/components/devices/device-drag';
import { FolderTreeView } from '@/components/ui/folder-tree-view';
import { FolderIcon, FolderOpenIcon, Icon, WarningIcon, type IconProps } from '@/components/ui/icons';
import { useDeviceGroupChildren, type DeviceGroup, type OnlineOffline } from '@/lib/api/device-groups';
import { cn } from '@/lib/cn';

/** A video-wall folder's mark: a 2 × 2 wall of screens. */
export const VideoWallIcon = (p: IconProps) => (
  <Icon {...p}>
    <rect x="3" y="4" width="8.5" height="6.5" rx="1" />
    <rect x="12.5" y="4" width="8.5" height="6.5" rx="1" />
    <rect x="3" y="11.5" width="8.5" height="6.5" rx="1" />
    <rect x="12.5" y="11.5" width="8.5" height="6.5" rx="1" />
    <path d="M9 21h6" />
  </Icon>
);

export const isVideoWall = (folder: Pick<DeviceGroup, 'type'> | undefined) => folder?.type === 'VIDEO_WALL';

type TreeProps = {
  root: DeviceGroup;
  selectedId: string;
  /** Ancestors of the selected folder (root first), opened so the selection is visible. */
  openPath: readonly string[];
  onSelect: (folder: DeviceGroup) => void;
  /** Online and offline screens in and below each folder (absent: no counts, as in the move dialog). */
  counts?: Record<string, OnlineOffline>;
  /** Marks each folder with the open alerts of the screens in and below it (its `alertCount`). */
  showAlerts?: boolean;
  /** Screens and folders dropped on a folder (absent: the tree only picks). */
  onDrop?: (target: DeviceGroup, items: DeviceDragItems) => void;
};

/** A folder's open alerts, in red; nothing without any. */
function FolderAlerts({ count }: { count: number | null | undefined }) {
  const t = useTranslations('devices.folders');
  if (!count) return null;
  const words = t('alerts', { count });

  return (
    <span
      data-testid="folder-alerts"
      title={words}
      className="inline-flex items-center gap-0.5 rounded-full bg-red-50 px-1.5 font-medium text-red-700 ring-1 ring-red-200 ring-inset"
    >
      <span className="sr-only">{words}</span>
      <WarningIcon className="size-3" />
      <span aria-hidden>{count}</span>
    </span>
  );
}

/**
 * The device folders, one level at a time, with the online and offline screens in and below each (and, with
 * `showAlerts`, their open alerts).
 */
export function DeviceFolderTree({ onDrop, counts, showAlerts = false, ...props }: TreeProps) {
  const t = useTranslations('devices');

  return (
    <FolderTreeView
      {...props}
      label={t('folders.tree')}
      rootLabel={t('allScreens')}
      testIdPrefix="device-folder"
      useChildren={useDeviceGroupChildren}
      glyph={(folder, { open, selected }) => {
        const Glyph = isVideoWall(folder) ? VideoWallIcon : open ? FolderOpenIcon : FolderIcon;

        return (
          <>
            <Glyph
              className={cn('size-4 shrink-0', isVideoWall(folder) ? 'text-violet-500' : selected ? 'text-brand-600' : 'text-zinc-400')}
            />
            {isVideoWall(folder) ? <span className="sr-only">{t('folders.videoWallMark')}</span> : null}
          </>
        );
      }}
      badge={
        counts || showAlerts
          ? (folder) => (
              <>
                {showAlerts ? <FolderAlerts count={folder.alertCount} /> : null}
                {counts ? <FolderCounts counts={counts[folder.id]} /> : null}
              </>
            )
          : undefined
      }
      // The root stays put (the API refuses to move it).
      drag={
        onDrop
          ? {
              channel: deviceDrag,
              payloadOf: (folder, depth) => (depth > 0 ? { deviceIds: [], deviceGroupIds: [folder.id] } : null),
              onDrop,
            }
          : undefined
      }
    />
  );
}

/** Online and offline screens in and below a folder; nothing for a folder without screens. */
function FolderCounts({ counts }: { counts: OnlineOffline | undefined }) {
  const t = useTranslations('devices.folders');
  if (!counts || counts.onlineCount + counts.offlineCount === 0) return null;
  const words = t('counts', { online: counts.onlineCount, offline: counts.offlineCount });

  return (
    <span data-testid="folder-counts" title={words} className="inline-flex items-center gap-1.5">
      <span className="sr-only">{words}</span>
      <span aria-hidden className="inline-flex items-center gap-0.5 text-emerald-700">
        <span className="size-1.5 rounded-full bg-emerald-500" />
        {counts.onlineCount}
      </span>
      <span aria-hidden className="inline-flex items-center gap-0.5">
        <span className="size-1.5 rounded-full bg-zinc-300" />
        {counts.offlineCount}
      </span>
    </span>
  );
}
