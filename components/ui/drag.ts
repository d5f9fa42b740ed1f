/*
 * HTML5 drag and drop of a typed payload between the console's own elements (cards, table rows, tree
 * nodes): one channel per kind of payload, named by its MIME type, so a drop target only lights up for
 * what it can take.
 */

type DropTargetOptions<T> = {
  onDrop: (items: T) => void;
  /** Drives the target's highlight. */
  setOver: (over: boolean) => void;
  disabled?: boolean;
};

export type DragChannel<T> = {
  /** Starts dragging `items`; `label` is what other applications receive as text. */
  set: (event: React.DragEvent, items: T, label: string) => void;
  has: (event: React.DragEvent) => boolean;
  read: (event: React.DragEvent) => T | null;
  /** Handlers that make an element a drop target for this channel. */
  targetProps: (options: DropTargetOptions<T>) => Partial<Pick<React.HTMLAttributes<HTMLElement>, 'onDragOver' | 'onDragLeave' | 'onDrop'>>;
};

/** A drag channel of payloads of type `T`; `parse` turns what was dropped into a payload (missing lists as empty). */
export function dragChannel<T>(mime: string, parse: (raw: Record<string, unknown>) => T): DragChannel<T> {
  const has = (event: React.DragEvent) => event.dataTransfer.types.includes(mime);
  const read = (event: React.DragEvent): T | null => {
    try {
      const raw: unknown = JSON.parse(event.dataTransfer.getData(mime));

      return raw && typeof raw === 'object' ? parse(raw as Record<string, unknown>) : null;
    } catch {
      return null;
    }
  };

  return {
    set: (event, items, label) => {
      event.dataTransfer.effectAllowed = 'move';
      event.dataTransfer.setData(mime, JSON.stringify(items));
      event.dataTransfer.setData('text/plain', label);
    },
    has,
    read,
    targetProps: ({ onDrop, setOver, disabled = false }) => {
      if (disabled) return {};

      return {
        onDragOver: (e) => {
          if (!has(e)) return;
          e.preventDefault();
          e.dataTransfer.dropEffect = 'move';
          setOver(true);
        },
        onDragLeave: () => setOver(false),
        onDrop: (e) => {
          setOver(false);
          const items = read(e);
          if (!items) return;
          e.preventDefault();
          onDrop(items);
        },
      };
    },
  };
}

/** The ids of a list of strings in a dropped payload (anything else is dropped). */
export function idList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
