import { createRequire } from 'node:module';
import { requireAuthSecret } from '@/server/config';

// next-auth is CommonJS; load its JWT helpers the way both tsx and the bundled server accept.
const require = createRequire(import.meta.url);
const nextAuthJwt = require('next-auth/jwt') as typeof import('next-auth/jwt');

const COOKIE_NAMES = ['__Secure-next-auth.session-token', 'next-auth.session-token'];

/**
 * Reads next-auth's session cookie (possibly chunked as name.0, name.1, …) from a Cookie header. A value that is not
 * valid percent-encoding (`%`, `%E0%A4%A`) is no session: the caller answers 401 as for any bad credential.
 */
function readSessionCookie(cookieHeader: string | undefined): string | undefined {
  if (!cookieHeader) return undefined;
  const jar = new Map<string, string>();
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    jar.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  for (const name of COOKIE_NAMES) {
    const whole = jar.get(name);
    if (whole) return decodedOrUndefined(whole);
    const chunks: string[] = [];
    for (let i = 0; jar.has(`${name}.${i}`); i++) chunks.push(jar.get(`${name}.${i}`)!);
    if (chunks.length > 0) return decodedOrUndefined(chunks.join(''));
  }

  return undefined;
}

function decodedOrUndefined(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined; // URIError: malformed percent-encoding
  }
}

/** The API access token kept inside the console's encrypted session cookie, if the cookie is valid. */
export async function accessTokenFromSessionCookie(cookieHeader: string | undefined): Promise<string | undefined> {
  const cookie = readSessionCookie(cookieHeader);
  if (!cookie) return undefined;
  try {
    const payload = await nextAuthJwt.decode({ token: cookie, secret: requireAuthSecret() });
    const accessToken = payload?.accessToken;

    return typeof accessToken === 'string' ? accessToken : undefined;
  } catch {
    return undefined;
  }
}
