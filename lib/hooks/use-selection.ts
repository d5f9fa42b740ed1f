'use client';

import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * The items picked on one page of a list for bulk actions: a click toggles one, a shift-click adds the range
 * from the previous click. Cleared whenever `resetKey` changes (another folder, filter or page).
 */
export function useSelection(pageIds: readonly string[], resetKey: string) {
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const anchor = useRef<string | null>(null);
  useEffect(() => setSelected(new Set()), [resetKey]);

  const toggle = useCallback(
    (id: string, { range }: { range: boolean }) => {
      setSelected((prev) => {
        const next = new Set(prev);
        if (range && anchor.current && pageIds.includes(anchor.current) && pageIds.includes(id)) {
          const [a, b] = [pageIds.indexOf(anchor.current), pageIds.indexOf(id)].sort((x, y) => x - y);
          pageIds.slice(a, b! + 1).forEach((x) => next.add(x));
        } else if (next.has(id)) next.delete(id);
        else next.add(id);
        anchor.current = id;

        return next;
      });
    },
    [pageIds],
  );
  const setAll = useCallback((ids: readonly string[], select: boolean) => setSelected(select ? new Set(ids) : new Set()), []);
  const clear = useCallback(() => setSelected(new Set()), []);

  return { selected, toggle, setAll, clear };
}
