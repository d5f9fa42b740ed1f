import { z } from '@hono/zod-openapi';
import { defineRoute } from '@/server/http/route';
import {
  DeviceTokenResponseSchema,
  JwksSchema,
  OAuthErrorSchema,
  RevokeRequestSchema,
  TokenRequestSchema,
  TokenResponseSchema,
} from './oauth.schemas';

const form = 'application/x-www-form-urlencoded';
const basicAuth = [{ clientBasic: [] }];

export const tokenRoute = defineRoute(
  { public: true },
  {
    method: 'post',
    path: '/oauth/token',
    operationId: 'oauthToken',
    tags: ['Authentication'],
    summary: "Obtain tokens (password, refresh_token or a device's client_credentials grant)",
    description:
      'OAuth 2.0 token endpoint. Authenticate the client with HTTP Basic (`default-client` or `short-lived`). ' +
      'Refresh tokens rotate; reusing a retired refresh token revokes the whole sign-in. Users with a second factor send `x-totp` or `totp`. ' +
      'Devices use `grant_type=client_credentials` with HTTP Basic `deviceId:deviceSecret` and get a one-hour token for the player API ' +
      '(`scope: device`); after a secret rotation the previous secret works until the new one is first used here, or 24 h.',
    security: basicAuth,
    request: {
      headers: z.object({ 'x-totp': z.string().optional() }),
      body: { required: true, content: { [form]: { schema: TokenRequestSchema } } },
    },
    responses: {
      200: {
        description: "Tokens: a user's (password, refresh_token) or a device's (client_credentials)",
        content: { 'application/json': { schema: z.union([TokenResponseSchema, DeviceTokenResponseSchema]) } },
      },
      400: {
        description: 'invalid_request, invalid_grant (incl. totp_required / totp_invalid), unsupported_grant_type, unauthorized_client',
        content: { 'application/json': { schema: OAuthErrorSchema } },
      },
      401: { description: 'invalid_client', content: { 'application/json': { schema: OAuthErrorSchema } } },
      429: { description: 'Too many failed attempts; see Retry-After', content: { 'application/json': { schema: OAuthErrorSchema } } },
    },
  },
  { rateLimited: 'failed sign-ins and second-factor checks, per account and per client address' },
);

export const revokeRoute = defineRoute(
  { public: true },
  {
    method: 'post',
    path: '/oauth/revoke',
    operationId: 'oauthRevoke',
    tags: ['Authentication'],
    summary: 'Revoke a token and its whole sign-in (RFC 7009)',
    description:
      'Signs out: the access and refresh tokens of the sign-in the given token belongs to stop working. Unknown tokens are ignored.',
    security: basicAuth,
    request: { body: { required: true, content: { [form]: { schema: RevokeRequestSchema } } } },
    responses: {
      200: { description: 'Revoked (or unknown)', content: { 'application/json': { schema: z.object({}) } } },
      400: { description: 'invalid_request', content: { 'application/json': { schema: OAuthErrorSchema } } },
      401: { description: 'invalid_client', content: { 'application/json': { schema: OAuthErrorSchema } } },
    },
  },
);

export const jwksRoute = defineRoute(
  { public: true },
  {
    method: 'get',
    path: '/oauth/jwks',
    operationId: 'oauthJwks',
    tags: ['Authentication'],
    summary: 'Public keys that verify `jwt_access_token`',
    responses: { 200: { description: 'JSON Web Key Set', content: { 'application/json': { schema: JwksSchema } } } },
  },
);
