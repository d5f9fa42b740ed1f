'use client';

import { useQuery } from '@tanstack/react-query';
import { useCallback, useSyncExternalStore } from 'react';
import { api, ok } from '@/lib/api/client';
import { userKeys } from '@/lib/api/users';
import { isUiElementVisible } from '@/lib/ui-profile/rules';

/** Read once per session (and again after user changes invalidate `users`). */
function useMyUiProfile() {
  return useQuery({
    queryKey: [...userKeys.me(), 'uiProfile'] as const,
    queryFn: ({ signal }) =>
      ok(api.GET('/api/v2/user/me', { params: { query: { select: '*,userInterfaceProfile(*)' } }, signal })).then(
        (me) => me.userInterfaceProfile ?? null,
      ),
    staleTime: 5 * 60_000,
  });
}

/**
 * Whether the signed-in user's UI profile lets an element be shown. `ready` is false until the profile
 * is known, so callers render nothing rather than flash an element the profile hides. A failed read
 * shows everything: the rules hide elements, they grant no permission.
 */
export function useUiElements(): { ready: boolean; isVisible: (key: string) => boolean } {
  const query = useMyUiProfile();
  // Not ready while hydrating: the server rendered without the profile, and a streamed segment may hydrate
  // after the query resolved; the first client render must match the server's HTML.
  const hydrated = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  const rules = query.data?.hiddenUIElementRules;
  const isVisible = useCallback((key: string) => isUiElementVisible(rules, key), [rules]);

  return { ready: hydrated && !query.isPending, isVisible };
}

const noSubscription = () => () => undefined;
