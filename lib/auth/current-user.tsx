'use client';

import { createContext, useContext, type ReactNode } from 'react';
import type { SessionUser } from '@/lib/auth/types';

const CurrentUserContext = createContext<SessionUser | null>(null);

/** The signed-in user as the server read it from the session cookie, for role checks in client components. */
export function CurrentUserProvider({ user, children }: { user: SessionUser; children: ReactNode }) {
  return <CurrentUserContext.Provider value={user}>{children}</CurrentUserContext.Provider>;
}

export function useCurrentUser(): SessionUser {
  const user = useContext(CurrentUserContext);
  if (!user) throw new Error('useCurrentUser must be used inside CurrentUserProvider');

  return user;
}
