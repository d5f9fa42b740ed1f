'use client';

import { useTranslations } from 'next-intl';
import { deviceDrag, type DeviceDragItems } from '@/components/devices/device-drag';
import { FolderTreeView } from '@/components/ui/folder-tree-view';
import { FolderIcon, FolderOpenIcon, Icon, type IconProps } from '@/components/ui/icons';
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
  /** Screens and folders dropped on a folder (absent: the tree only picks). */
  onDrop?: (target: DeviceGroup, items: DeviceDragItems) => void;
};

/** The device folders, one level at a time, with the online and offline screens in and below each. */
export function DeviceFolderTree({ onDrop, counts, ...props }: TreeProps) {
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
        counts
          ? (folder) => {
              const c = counts[folder.id];
              if (!c || c.onlineCount + c.offlineCount === 0) return null;
              const words = t('folders.counts', { online: c.onlineCount, offline: c.offlineCount });

              return (
                <span data-testid="folder-counts" title={words} className="inline-flex items-center gap-1.5">
                  <span className="sr-only">{words}</span>
                  <span aria-hidden className="inline-flex items-center gap-0.5 text-emerald-700">
                    <span className="size-1.5 rounded-full bg-emerald-500" />
                    {c.onlineCount}
                  </span>
                  <span aria-hidden className="inline-flex items-center gap-0.5">
                    <span className="size-1.5 rounded-full bg-zinc-300" />
                    {c.offlineCount}
                  </span>
                </span>
              );
            }
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
