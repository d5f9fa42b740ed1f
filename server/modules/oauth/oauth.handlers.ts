import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { ValidationError } from '@/server/errors';
import { jwks } from '@/server/auth/jwt';
import { clientAddress } from '@/server/http/client-address';
import type { AppEnv } from '@/server/http/context';
import { jwksRoute, revokeRoute, tokenRoute } from './oauth.routes';
import { authenticateClient, clientCredentialsGrant, OAuthError, passwordGrant, refreshGrant, revokeToken } from './oauth.service';

type OAuthStatus = OAuthError['status'];
const ALL_STATUSES: readonly OAuthStatus[] = [400, 401, 429];

/**
 * RFC 6749's error answer: `{error, error_description}` with the error's status, one of those the route
 * declares (`declared`); any other is a bug and goes on as a 500.
 */
function oauthErrorResponse<S extends OAuthStatus>(c: Context<AppEnv>, err: OAuthError, declared: readonly S[]) {
  const status = declared.find((s) => s === err.status);
  if (status === undefined) throw err;
  c.header('Cache-Control', 'no-store');
  if (err.status === 401) c.header('WWW-Authenticate', 'Basic realm="oauth"');
  if (err.retryAfterSeconds) c.header('Retry-After', String(err.retryAfterSeconds));

  return c.json({ error: err.error, error_description: err.description }, status);
}

/** Validation failures of the form answer RFC 6749's invalid_request, not our error shape. */
function oauthValidationHook(result: { success: boolean }, c: Context<AppEnv>) {
  if (!result.success)
    return oauthErrorResponse(c, new OAuthError('invalid_request', 'The request is missing a parameter or has an invalid one'), [
      400,
    ] as const);

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
  if (refused && c.res.status === 400)
    c.res = oauthErrorResponse(c, new OAuthError('invalid_request', c.error?.message || 'Malformed request'), [400] as const);
};

export function registerOAuthRoutes(app: OpenAPIHono<AppEnv>) {
  app.use('/oauth/token', oauthRequestErrors);
  app.use('/oauth/revoke', oauthRequestErrors);
  app.openapi(
    tokenRoute,
    async (c) => {
      const { db, config } = c.var.deps;
      try {
        const body = c.req.valid('form');
        c.header('Cache-Control', 'no-store');
        if (body.grant_type === 'client_credentials')
          return c.json(await clientCredentialsGrant(db, config, c.req.header('authorization')), 200);
        const clientId = authenticateClient(config, c.req.header('authorization'));
        if (body.grant_type === 'password') {
          if (!body.username || body.password === undefined) throw new OAuthError('invalid_request', 'username and password are required');
          const totp = c.req.valid('header')['x-totp'] ?? body.totp;

          return c.json(
            await passwordGrant(db, config, {
              clientId,
              username: body.username,
              password: body.password,
              totp,
              address: clientAddress(c),
            }),
            200,
          );
        }
        if (body.grant_type !== 'refresh_token')
          throw new OAuthError('unsupported_grant_type', `Unsupported grant type '${body.grant_type}'`);
        if (!body.refresh_token) throw new OAuthError('invalid_request', 'refresh_token is required');

        return c.json(await refreshGrant(db, { clientId, refreshToken: body.refresh_token }), 200);
      } catch (err) {
        if (err instanceof OAuthError) return oauthErrorResponse(c, err, ALL_STATUSES);
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
        if (err instanceof OAuthError) return oauthErrorResponse(c, err, [400, 401] as const);
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
