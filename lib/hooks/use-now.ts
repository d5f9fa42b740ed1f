'use client';

import { useEffect, useState } from 'react';

/**
 * The time now (epoch ms), moved on every `everyMs` so relative times ("3 minutes ago") stay true while a page is
 * open; rounded down to `roundToMs` when given, so a value derived from it (a window, a query key) stays stable.
 */
export function useNow(everyMs = 30_000, roundToMs = 1): number {
  const read = () => Math.floor(Date.now() / roundToMs) * roundToMs;
  const [now, setNow] = useState(read);
  useEffect(() => {
    const timer = setInterval(() => setNow(Math.floor(Date.now() / roundToMs) * roundToMs), everyMs);

    return () => clearInterval(timer);
  }, [everyMs, roundToMs]);

  return now;
}
