import { dragChannel, idList } from '@/components/ui/drag';

/** The drag payload of content rows, cards and folders, moved onto a content folder with `POST /api/contentGroup/move`. */
export type ContentDragItems = { contentIds: string[]; contentGroupIds: string[] };

export const contentDrag = dragChannel<ContentDragItems>('application/x-signage-content', (raw) => ({
  contentIds: idList(raw.contentIds),
  contentGroupIds: idList(raw.contentGroupIds),
}));
