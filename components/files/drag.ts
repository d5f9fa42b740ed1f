import { dragChannel, idList } from '@/components/ui/drag';

/** The drag payload of file cards and folders, moved onto a folder with moveBatchToFolder. */
export type DragItems = { fileIds: string[]; folderIds: string[] };

const mediaDrag = dragChannel<DragItems>('application/x-signage-media', (raw) => ({
  fileIds: idList(raw.fileIds),
  folderIds: idList(raw.folderIds),
}));

export const setDragItems = mediaDrag.set;

/** Handlers that make an element a drop target for media; `over` drives its highlight. */
export const dropTargetProps = mediaDrag.targetProps;
