/**
 * The console's Content-Security-Policy (proxy.ts sets it on every page, with a fresh nonce per request; Next.js puts
 * the nonce on its own scripts when it renders the page). Scripts: only those carrying the nonce and what they load
 * ('strict-dynamic'); no inline script, no eval outside development. Styles allow inline attributes (React, Radix
 * and Uppy set `style`; a nonce cannot cover attributes). Frames: the web-page widgets of the slide editor and the
 * preview show any http(s) page, as the player does. Images: also any https address (remote feed images). Uploads
 * PUT their parts to presigned S3 URLs when the blob store is S3 (`uploadOrigins`).
 */
export type ConsolePolicyOptions = { nonce: string; development: boolean; uploadOrigins: readonly string[] };

export function consoleContentSecurityPolicy({ nonce, development, uploadOrigins }: ConsolePolicyOptions): string {
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    // React needs eval in development only (it rebuilds server error stacks in the browser).
    'script-src': ["'self'", `'nonce-${nonce}'`, "'strict-dynamic'", ...(development ? ["'unsafe-eval'"] : [])],
    'style-src': ["'self'", "'unsafe-inline'"],
    // A FEED item's `imageUrl` in the datasource page and the slide editor's preview (the player's policy admits it
    // too); https only: a plain http image is mixed content, readable and replaceable on the way.
    'img-src': ["'self'", 'data:', 'blob:', 'https:'],
    'media-src': ["'self'", 'blob:'],
    'font-src': ["'self'", 'data:'],
    // Development: the hot-reload socket.
    'connect-src': ["'self'", ...uploadOrigins, ...(development ? ['ws:', 'wss:'] : [])],
    'frame-src': ["'self'", 'http:', 'https:'],
    'worker-src': ["'self'", 'blob:'],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };

  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ');
}

/** The environment (process.env): S3_BUCKET, S3_ENDPOINT, S3_REGION, S3_FORCE_PATH_STYLE as the server reads them. */
type S3Env = Readonly<Record<string, string | undefined>>;

/**
 * Where the browser PUTs upload parts besides the console's own origin: the S3 endpoint of presigned part URLs
 * (server/storage/s3-store.ts: the given endpoint, path style or bucket-as-host; AWS's regional endpoint without one).
 * Local storage: none (parts go to the API's own part endpoint).
 */
export function uploadOriginsOf(env: S3Env): string[] {
  const bucket = env.S3_BUCKET;
  if (!bucket) return [];
  const pathStyle = ['true', '1', 'yes'].includes(env.S3_FORCE_PATH_STYLE ?? '');
  if (env.S3_ENDPOINT) {
    try {
      const endpoint = new URL(env.S3_ENDPOINT);

      return [pathStyle ? endpoint.origin : `${endpoint.protocol}//${bucket}.${endpoint.host}`];
    } catch {
      return []; // the server refuses to start with an invalid S3_ENDPOINT
    }
  }
  const region = env.S3_REGION ?? 'us-east-1';

  return [pathStyle ? `https://s3.${region}.amazonaws.com` : `https://${bucket}.s3.${region}.amazonaws.com`];
}
