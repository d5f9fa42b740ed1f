'use client';

import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useCallback, useEffect } from 'react';

/**
 * The query last asked for, until the router reports it. router.replace lands asynchronously, so a second
 * change made before it lands (a filter, then the debounced search; two hooks writing one URL) must build
 * on the first, not on the URL of an older render. One per window, as the URL is.
 */
let pending: { path: string; query: string; at: number } | null = null;
// A pending query the router never reported (it should not happen) stops counting after this long.
const PENDING_MS = 3000;

function currentQuery(pathname: string): string {
  if (pending && pending.path === pathname && Date.now() - pending.at < PENDING_MS) return pending.query;

  return typeof window === 'undefined' ? '' : window.location.search;
}

/**
 * The one way a console page changes its URL query: `change` gets the newest query (including changes not
 * landed yet) and returns the next one, which replaces the current history entry.
 */
export function useReplaceQuery() {
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  useEffect(() => {
    if (pending && pending.path === pathname && pending.query === searchParams.toString()) pending = null;
  }, [pathname, searchParams]);

  return useCallback(
    (change: (current: URLSearchParams) => URLSearchParams) => {
      const query = change(new URLSearchParams(currentQuery(pathname))).toString();
      pending = { path: pathname, query, at: Date.now() };
      router.replace(query ? `${pathname}?${query}` : pathname, { scroll: false });
    },
    [router, pathname],
  );
}
