import { z } from '@hono/zod-openapi';
import { intId } from '@/server/http/wire.schemas';

export const TokenRequestSchema = z
  .object({
    grant_type: z.string().openapi({ enum: ['password', 'refresh_token', 'client_credentials'] }),
    username: z.string().optional(),
    password: z.string().optional(),
    refresh_token: z.string().optional(),
    totp: z.string().optional().openapi({ description: 'One-time code for users with a second factor (or header x-totp)' }),
  })
  .openapi('TokenRequest');

export const TokenResponseSchema = z
  .object({
    access_token: z.string(),
    token_type: z.literal('bearer'),
    expires_in: z.number().int(),
    refresh_token: z.string(),
    refresh_total_validity_seconds: z.number().int(),
    jwt_access_token: z.string(),
    customer_id: intId,
  })
  .openapi('TokenResponse');

/** A device's token (spec 4 §2: `client_credentials` with HTTP Basic `deviceId:deviceSecret`). */
export const DeviceTokenResponseSchema = z
  .object({
    access_token: z.string(),
    token_type: z.literal('bearer'),
    expires_in: z.number().int(),
    scope: z.literal('device'),
  })
  .openapi('DeviceTokenResponse');

export type DeviceTokenResponse = z.infer<typeof DeviceTokenResponseSchema>;

export const OAuthErrorSchema = z.object({ error: z.string(), error_description: z.string().optional() }).openapi('OAuthError');

export const RevokeRequestSchema = z
  .object({ token: z.string().min(1), token_type_hint: z.enum(['access_token', 'refresh_token']).optional() })
  .openapi('RevokeRequest');

export const JwksSchema = z.object({ keys: z.array(z.record(z.string(), z.unknown())) }).openapi('JWKS');
