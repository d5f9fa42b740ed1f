'use client';

import { useTranslations } from 'next-intl';
import { contentDrag, type ContentDragItems } from '@/components/content/content-drag';
import { FolderTreeView } from '@/components/ui/folder-tree-view';
import { FolderIcon, FolderOpenIcon, Icon, type IconProps } from '@/components/ui/icons';
import { useContentGroupChildren, type ContentGroup } from '@/lib/api/content-groups';
import { cn } from '@/lib/cn';

/** The Templates folder's mark: a folder with a star. */
const TemplatesIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M3 7a2 2 0 0 1 2-2h4l2 2h8a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V7Z" />
    <path d="m12 10.2.9 1.8 2 .3-1.45 1.4.35 2-1.8-.95-1.8.95.35-2-1.45-1.4 2-.3.9-1.8Z" />
  </Icon>
);

type TreeProps = {
  root: ContentGroup;
  selectedId: string;
  /** Ancestors of the selected folder (root first), opened so the selection is visible. */
  openPath: readonly string[];
  onSelect: (folder: ContentGroup) => void;
  /** Content and folders dropped on a folder (absent: the tree only picks, as in the move dialog). */
  onDrop?: (target: ContentGroup, items: ContentDragItems) => void;
};

/** The content folders, one level loaded at a time; with `onDrop`, folders take dropped content and folders. */
export function ContentFolderTree({ onDrop, ...props }: TreeProps) {
  const t = useTranslations('content.folders');

  return (
    <FolderTreeView
      {...props}
      label={t('label')}
      rootLabel={t('root')}
      testIdPrefix="content-folder"
      useChildren={useContentGroupChildren}
      glyph={(folder, { open, selected }) => {
        const Glyph = folder.isTemplateGroup ? TemplatesIcon : open ? FolderOpenIcon : FolderIcon;

        return (
          <Glyph
            className={cn('size-4 shrink-0', folder.isTemplateGroup ? 'text-amber-500' : selected ? 'text-brand-600' : 'text-zinc-400')}
          />
        );
      }}
      badge={(folder) => {
        const count = (folder.contentCount ?? 0) + (folder.simpleLoopCount ?? 0);

        return count > 0 ? count : null;
      }}
      // The root and the Templates folder stay put (the API refuses to move them).
      drag={
        onDrop
          ? {
              channel: contentDrag,
              payloadOf: (folder, depth) =>
                depth > 0 && !folder.isTemplateGroup ? { contentIds: [], contentGroupIds: [folder.id] } : null,
              onDrop,
            }
          : undefined
      }
    />
  );
}
