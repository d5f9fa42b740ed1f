import 'server-only';

type ApiFetch = (req: Request, clientAddress?: string) => Promise<Response>;

/** main.ts stamps every request it hands to Next with the caller's address (overwriting any sent by the client). */
export const CLIENT_ADDRESS_HEADER = 'x-signage-client-address';

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
export async function callApi(path: string, init: RequestInit = {}, options: { clientAddress?: string } = {}): Promise<Response> {
  const url = `${publicUrl()}${path}`;
  const bridge = (globalThis as Record<symbol, unknown>)[BRIDGE] as ApiFetch | undefined;
  // The client address lets the API rate-limit failed sign-ins per address, not per console process.
  if (typeof bridge === 'function') return bridge(new Request(url, init), options.clientAddress);

  return fetch(url, { ...init, cache: 'no-store' });
}
