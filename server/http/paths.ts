/** Paths served by the Hono app; everything else is the console (Next.js). next-auth keeps /api/auth. */
export function isApiPath(url: string): boolean {
  const p = url.split('?', 1)[0]!;
  if (p === '/api/auth' || p.startsWith('/api/auth/')) return false;

  return (
    p === '/api' ||
    p.startsWith('/api/') ||
    p.startsWith('/public-api/') ||
    p === '/oauth' ||
    p.startsWith('/oauth/') ||
    p === '/healthz' ||
    p === '/readyz' ||
    p === '/metrics'
  );
}
