import type { Credential, WireRequest } from './operations';

/**
 * A runnable curl line for a request, with placeholders for the credentials (`$OWNER_TOKEN`, …): ids in it
 * are the test database's, so it shows the shape to send to a server seeded the same way.
 */

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

const CREDENTIAL_ARGS: Record<Credential, (malformedCookie: string, write: boolean) => string[]> = {
  'owner-bearer': () => ['-H "Authorization: Bearer $OWNER_TOKEN"'],
  'admin-bearer': () => ['-H "Authorization: Bearer $ADMIN_TOKEN"'],
  'device-bearer': () => ['-H "Authorization: Bearer $DEVICE_TOKEN"'],
  'owner-cookie': (_cookie, write) => [
    '-H "Cookie: next-auth.session-token=$OWNER_SESSION_COOKIE"',
    ...(write ? [`-H ${quote('Origin: http://localhost:3000')}`] : []),
  ],
  'owner-cookie-no-origin': () => ['-H "Cookie: next-auth.session-token=$OWNER_SESSION_COOKIE"'],
  none: () => [],
  'unknown-bearer': () => [`-H ${quote(`Authorization: Bearer ${'A'.repeat(43)}`)}`],
  'malformed-cookie': (cookie) => [`-H ${quote(`Cookie: next-auth.session-token=${cookie}`)}`],
  'not-bearer': () => [`-H ${quote('Authorization: Basic Zm9vOmJhcg==')}`],
  'client-basic': () => ['-u "default-client:$OAUTH_DEFAULT_CLIENT_SECRET"'],
  'device-basic': () => ['-u "$DEVICE_ID:$DEVICE_SECRET"'],
  'wrong-basic': () => [`-u ${quote('default-client:wrong')}`],
};

const MAX_BODY = 4_000;

export function curlLine(request: WireRequest, credential: Credential, malformedCookie: string, base = 'http://localhost:3000'): string {
  const args = ['curl -sS', `-X ${request.method}`, quote(`${base}${request.url}`)];
  args.push(...CREDENTIAL_ARGS[credential](malformedCookie, request.method !== 'GET'));
  for (const [name, value] of Object.entries(request.headers)) args.push(`-H ${quote(`${name}: ${value}`)}`);
  const body = request.body;
  if (body?.kind === 'json') {
    args.push(`-H ${quote(`Content-Type: ${body.mediaType}`)}`);
    args.push(
      `--data-raw ${quote(body.text.length > MAX_BODY ? `${body.text.slice(0, MAX_BODY)}…(${body.text.length} characters)` : body.text)}`,
    );
  } else if (body?.kind === 'form') {
    args.push(`--data-raw ${quote(new URLSearchParams(body.fields).toString())}`);
  } else if (body?.kind === 'multipart') {
    for (const [name, text, kind] of body.fields)
      args.push(kind === 'file' ? `-F ${quote(`${name}=@fuzz.bin`)}` : `-F ${quote(`${name}=${text}`)}`);
  } else if (body?.kind === 'bytes') {
    args.push(`-H ${quote(`Content-Type: ${body.mediaType}`)}`, `--data-binary @body.bin  # ${body.bytes.length} bytes`);
  }

  return args.join(' ');
}
