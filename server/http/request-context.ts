import type { MiddlewareHandler } from 'hono';
import { v7 as uuidv7 } from 'uuid';
import type { AppDeps, AppEnv } from './context';
import { actorLogFields } from '@/server/context/actor';

const VALID_REQUEST_ID = /^[\w.-]{1,64}$/;

/**
 * First middleware of every request: dependencies, a request id (the caller's X-Request-Id
 * when well-formed), a child logger, and one access-log line. The path is logged without its
 * query string, which may carry signed tokens or API keys.
 */
export function requestContext(deps: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const incoming = c.req.header('x-request-id');
    const requestId = incoming && VALID_REQUEST_ID.test(incoming) ? incoming : uuidv7();
    const log = deps.log.child({ requestId });
    c.set('deps', deps);
    c.set('requestId', requestId);
    c.set('log', log);
    // Set before next(): a header added after the response exists makes @hono/node-server
    // rebuild it as a streamed Response (measured ~3× slower on trivial routes).
    c.header('X-Request-Id', requestId);
    const started = performance.now();
    await next();
    if (log.isLevelEnabled('info')) {
      log.info(
        {
          method: c.req.method,
          path: c.req.path,
          status: c.res.status,
          ms: Math.round((performance.now() - started) * 10) / 10,
          ...(actorLogFields(c.var.actor) ?? (c.var.device ? { deviceId: c.var.device.deviceId } : undefined)),
        },
        'request',
      );
    }
  };
}
