import type { Context } from 'hono';
import type { AppEnv } from './context';

/**
 * Where the service's own signed URLs (local part uploads, downloads) point: the origin the request
 * came to, so a console opened on another address than PUBLIC_URL (127.0.0.1 instead of localhost, a
 * LAN name) gets URLs its browser may use. When the request came to PUBLIC_URL's host, PUBLIC_URL
 * itself (its scheme survives a TLS-terminating proxy); otherwise `X-Forwarded-Proto` names the scheme.
 */
export function requestOrigin(c: Context<AppEnv>): string {
  const url = new URL(c.req.url);
  const publicUrl = c.var.deps.config.publicUrl;
  if (publicUrl && new URL(publicUrl).host === url.host) return new URL(publicUrl).origin;
  const forwarded = c.req.header('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();

  return `${forwarded === 'https' || forwarded === 'http' ? forwarded : url.protocol.replace(/:$/, '')}://${url.host}`;
}
