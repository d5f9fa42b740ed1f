/** The drag payload of file cards and folders, moved onto a folder with moveBatchToFolder. */
export type DragItems = { fileIds: string[]; folderIds: string[] };

export const DRAG_TYPE = 'application/x-signage-media';

export function setDragItems(event: React.DragEvent, items: DragItems, label: string) {
  event.dataTransfer.effectAllowed = 'move';
  event.dataTransfer.setData(DRAG_TYPE, JSON.stringify(items));
  event.dataTransfer.setData('text/plain', label);
}

export function hasDragItems(event: React.DragEvent): boolean {
  return event.dataTransfer.types.includes(DRAG_TYPE);
}

export function readDragItems(event: React.DragEvent): DragItems | null {
  try {
    const parsed = JSON.parse(event.dataTransfer.getData(DRAG_TYPE)) as Partial<DragItems>;

    return { fileIds: parsed.fileIds ?? [], folderIds: parsed.folderIds ?? [] };
  } catch {
    return null;
  }
}

/** Handlers that make an element a drop target for media; `over` drives its highlight. */
export function dropTargetProps({
  onDrop,
  setOver,
  disabled = false,
}: {
  onDrop: (items: DragItems) => void;
  setOver: (over: boolean) => void;
  disabled?: boolean;
}) {
  if (disabled) return {};

  return {
    onDragOver: (e: React.DragEvent) => {
      if (!hasDragItems(e)) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = 'move';
      setOver(true);
    },
    onDragLeave: () => setOver(false),
    onDrop: (e: React.DragEvent) => {
      setOver(false);
      const items = readDragItems(e);
      if (!items) return;
      e.preventDefault();
      onDrop(items);
    },
  };
}
