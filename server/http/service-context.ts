import type { Context } from 'hono';
import { UnauthorizedError } from '@/server/errors';
import type { AppEnv } from './context';
import type { DeviceContext, ServiceContext } from '@/server/context/service-context';
import { deviceActorOf } from '@/server/context/actor';

/**
 * Adapts a request to the context a service verb receives. The routes that use it take users' credentials
 * only: any other caller (a device token, say) gets the 401 an unknown token gets (spec 4).
 */
export function serviceContext(c: Context<AppEnv>): ServiceContext {
  const actor = c.var.actor;
  if (actor?.kind !== 'user') throw new UnauthorizedError('The access token is invalid, expired or revoked', 'auth.error.invalidToken');
  const scope = c.var.scope ?? { kind: 'customer' as const, customerId: actor.customerId, explicit: false };

  return {
    db: c.var.deps.db,
    config: c.var.deps.config,
    storage: c.var.deps.storage,
    actor,
    scope,
    requestId: c.var.requestId,
    log: c.var.log,
    proof: { captchaResponse: c.req.header('g-recaptcha-response'), totp: c.req.header('x-totp') },
  };
}

/** Adapts a player-API request (a device token, see `authenticateDevice`) to the context its verbs receive. */
export function deviceContext(c: Context<AppEnv>): DeviceContext {
  const device = c.var.device;
  if (!device) throw new UnauthorizedError('The device access token is invalid, expired or revoked', 'auth.error.invalidToken');

  return {
    db: c.var.deps.db,
    config: c.var.deps.config,
    storage: c.var.deps.storage,
    device,
    actor: deviceActorOf(device),
    requestId: c.var.requestId,
    log: c.var.log,
  };
}
