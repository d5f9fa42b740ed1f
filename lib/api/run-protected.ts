'use client';

import { createContext, useContext } from 'react';
import type { ProofHeaders } from '@/lib/api/protected';

export type RunProtected = <T>(run: (headers: ProofHeaders) => Promise<T>) => Promise<T>;

/** Provided by the console shell's one-time-code prompt (components/shell/totp-prompt.tsx). */
export const RunProtectedContext = createContext<RunProtected | null>(null);

/** Wraps a protected API call: `runProtected((headers) => ok(api.DELETE('/api/…', { headers, … })))`. */
export function useRunProtected(): RunProtected {
  const value = useContext(RunProtectedContext);
  if (!value) throw new Error('useRunProtected must be used inside TotpPromptProvider');

  return value;
}
