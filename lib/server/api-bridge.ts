import 'server-only';

type ApiFetch = (req: Request) => Promise<Response>;

const BRIDGE = Symbol.for('signage.apiFetch');

function publicUrl(): string {
  const url = process.env.NEXTAUTH_URL;
  if (!url) throw new Error('NEXTAUTH_URL is not set');

  return url.replace(/\/$/, '');
}

/**
 * Calls the API from server-side console code. Inside the custom server the Hono app is reachable
 * in-process through the bridge main.ts installs, so no network hop and no dependency on the public URL
 * being reachable from the server itself.
 */
export async function callApi(path: string, init: RequestInit = {}): Promise<Response> {
  const url = `${publicUrl()}${path}`;
  const bridge = (globalThis as Record<symbol, unknown>)[BRIDGE] as ApiFetch | undefined;
  if (typeof bridge === 'function') return bridge(new Request(url, init));

  return fetch(url, { ...init, cache: 'no-store' });
}
