import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { ValidationError } from '@/server/errors';
import { jwks } from '@/server/auth/jwt';
import { clientAddress } from '@/server/http/client-address';
import type { AppEnv } from '@/server/http/context';
import { jwksRoute, revokeRoute, tokenRoute } from './oauth.routes';
import { authenticateClient, OAuthError, passwordGrant, refreshGrant, revokeToken } from './oauth.service';

// Typed as never: the RFC 6749 body is declared per route, not derivable from the error instance.
function oauthErrorResponse(c: Context<AppEnv>, err: OAuthError): never {
  c.header('Cache-Control', 'no-store');
  if (err.status === 401) c.header('WWW-Authenticate', 'Basic realm="oauth"');
  if (err.retryAfterSeconds) c.header('Retry-After', String(err.retryAfterSeconds));

  return c.json({ error: err.error, error_description: err.description }, err.status) as never;
}

/** Validation failures of the form answer RFC 6749's invalid_request, not our error shape. */
function oauthValidationHook(result: { success: boolean }, c: Context<AppEnv>) {
  if (!result.success) return oauthErrorResponse(c, new OAuthError('invalid_request', 'The request is missing a parameter or has an invalid one'));

  return undefined;
}

/**
 * The shared request layer (server/http/request-input.ts) and the body parser refuse bad input before
 * these routes' handlers run, in our error shape; the OAuth endpoints answer such 400s as RFC 6749's
 * invalid_request. A 413 keeps our shape: RFC 6749 names no error for it.
 */
const oauthRequestErrors: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  const refused = c.error instanceof ValidationError || c.error instanceof HTTPException;
  if (refused && c.res.status === 400) c.res = oauthErrorResponse(c, new OAuthError('invalid_request', c.error?.message || 'Malformed request'));
};

export function registerOAuthRoutes(app: OpenAPIHono<AppEnv>) {
  app.use('/oauth/token', oauthRequestErrors);
  app.use('/oauth/revoke', oauthRequestErrors);
  app.openapi(
    tokenRoute,
    async (c) => {
      const { db, config } = c.var.deps;
      try {
        const clientId = authenticateClient(config, c.req.header('authorization'));
        const body = c.req.valid('form');
        c.header('Cache-Control', 'no-store');
        if (body.grant_type === 'password') {
          if (!body.username || body.password === undefined) throw new OAuthError('invalid_request', 'username and password are required');
          const totp = c.req.valid('header')['x-totp'] ?? body.totp;

          return c.json(await passwordGrant(db, config, { clientId, username: body.username, password: body.password, totp, address: clientAddress(c) }), 200);
        }
        if (body.grant_type !== 'refresh_token') throw new OAuthError('unsupported_grant_type', `Unsupported grant type '${body.grant_type}'`);
        if (!body.refresh_token) throw new OAuthError('invalid_request', 'refresh_token is required');

        return c.json(await refreshGrant(db, { clientId, refreshToken: body.refresh_token }), 200);
      } catch (err) {
        if (err instanceof OAuthError) return oauthErrorResponse(c, err);
        throw err;
      }
    },
    oauthValidationHook,
  );

  app.openapi(
    revokeRoute,
    async (c) => {
      try {
        const clientId = authenticateClient(c.var.deps.config, c.req.header('authorization'));
        await revokeToken(c.var.deps.db, { clientId, token: c.req.valid('form').token });

        return c.json({}, 200);
      } catch (err) {
        if (err instanceof OAuthError) return oauthErrorResponse(c, err);
        throw err;
      }
    },
    oauthValidationHook,
  );

  app.openapi(jwksRoute, async (c) => {
    c.header('Cache-Control', 'public, max-age=300');

    return c.json(await jwks(), 200);
  });
}
