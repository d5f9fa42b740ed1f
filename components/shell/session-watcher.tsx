'use client';

import { useSession } from 'next-auth/react';
import { useEffect } from 'react';
import { signingOut } from '@/lib/auth/sign-out-flag';

/** Sends the user to the login page once next-auth reports the session gone or its refresh failed. */
export function SessionWatcher() {
  const { data, status } = useSession();
  const isGone = status === 'unauthenticated' || Boolean(data?.error);

  useEffect(() => {
    if (!isGone || signingOut()) return;
    const back = window.location.pathname + window.location.search;
    // eslint-disable-next-line @next/next/no-location-assign-relative-destination -- a full load on purpose: the expired session's cached queries and state must not survive into the sign-in page
    window.location.assign(`/login?reason=expired&callbackUrl=${encodeURIComponent(back)}`);
  }, [isGone]);

  return null;
}
