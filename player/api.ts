import type { ServerClock } from './clock';

/*
 * The player's side of the device API (spec 4 §2–§3): register, the client-credentials token (renewed a
 * minute before it expires, and again after a 401), and JSON calls that feed the server clock from every
 * `serverTime` they answer.
 */

export type Credentials = { deviceId: string; deviceSecret: string };
export type Registered = Credentials & { activationCode?: string; activationCodeExpiresAt?: number; heartbeatSeconds: number };
export type Status = {
  deviceId: string;
  assigned: boolean;
  activationCode?: string;
  activationCodeExpiresAt?: number;
  customerId?: number;
  name?: string;
  timeZone?: string;
  heartbeatSeconds: number;
  serverTime: number;
};

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly retryAfter?: number,
  ) {
    super(`HTTP ${status}`);
  }
}

export const PLAYER_VERSION = 'web-1.0';

export async function register(base: string): Promise<Registered> {
  const res = await fetch(`${base}/public-api/display/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      type: 'SCREEN',
      platform: 'BROWSER',
      version: PLAYER_VERSION,
      firmwareVersion: navigator.userAgent.slice(0, 256),
      nativeResolutionWidth: Math.round(screen.width * devicePixelRatio),
      nativeResolutionHeight: Math.round(screen.height * devicePixelRatio),
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    }),
  });
  const body: unknown = await res.json().catch(() => undefined);
  if (res.status !== 201) throw new HttpError(res.status, body, Number(res.headers.get('retry-after')) || undefined);

  return body as Registered;
}

export class DeviceApi {
  private token: string | undefined;
  private renewAt = 0;

  constructor(
    readonly base: string,
    readonly credentials: Credentials,
    readonly clock: ServerClock,
  ) {}

  /** A device token (spec 4 §2). A 400/401 means the credentials are gone (device deleted). */
  async accessToken(force = false): Promise<string> {
    if (!force && this.token && Date.now() < this.renewAt) return this.token;
    const basic = btoa(`${encodeURIComponent(this.credentials.deviceId)}:${encodeURIComponent(this.credentials.deviceSecret)}`);
    const res = await fetch(`${this.base}/oauth/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    const body = (await res.json().catch(() => undefined)) as { access_token: string; expires_in: number } | undefined;
    if (res.status !== 200 || !body) throw new HttpError(res.status, body);
    this.token = body.access_token;
    this.renewAt = Date.now() + Math.max(60, body.expires_in - 60) * 1000;

    return this.token;
  }

  /** A call with the device token; one retry with a fresh token after a 401. */
  async call(
    method: string,
    path: string,
    init: { json?: unknown; body?: BodyInit; contentType?: string; headers?: Record<string, string> } = {},
  ): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      const token = await this.accessToken(attempt > 0);
      const res = await fetch(`${this.base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(init.json !== undefined
            ? { 'content-type': 'application/json' }
            : init.contentType
              ? { 'content-type': init.contentType }
              : {}),
          ...init.headers,
        },
        body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
        cache: 'no-store',
      });
      if (res.status === 401 && attempt === 0) continue;

      return res;
    }
  }

  async json<T>(method: string, path: string, json?: unknown): Promise<T> {
    const sentAt = Date.now();
    const res = await this.call(method, path, json === undefined ? {} : { json });
    const body: unknown = await res.json().catch(() => undefined);
    if (!res.ok) throw new HttpError(res.status, body);
    const serverTime = (body as { serverTime?: unknown } | undefined)?.serverTime;
    if (typeof serverTime === 'number') this.clock.sample(serverTime, sentAt, Date.now());

    return body as T;
  }
}
