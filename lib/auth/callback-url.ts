/** Only same-site paths; anything else (absolute URLs, `//host`, back to /login) lands on the overview. */
export function safeCallbackUrl(raw: string | undefined | null): string {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return '/';
  if (raw === '/login' || raw.startsWith('/login?') || raw.startsWith('/api/')) return '/';

  return raw;
}
