'use client';

import { useLayoutEffect, useState } from 'react';

/**
 * The element's content width in CSS pixels, kept current by a ResizeObserver; 0 while there is no
 * element. Takes the element itself (held with `useState` and a callback ref), so one rendered later
 * (after its data arrived) is observed too.
 */
export function useElementWidth(element: HTMLElement | null): number {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    if (!element) return setWidth(0);
    setWidth(element.clientWidth);
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    observer.observe(element);

    return () => observer.disconnect();
  }, [element]);

  return width;
}
