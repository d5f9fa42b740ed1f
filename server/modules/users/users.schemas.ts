import { z } from '@hono/zod-openapi';
import { roles } from '@/server/auth/roles';

/** `<IDP_PROVIDER>` of the spec is the open-source identity provider KEYCLOAK. */
export const authProviders = ['LOCAL', 'LDAP', 'SAML', 'KEYCLOAK'] as const;
export const editorLevels = ['BASIC', 'ADVANCED', 'PROFESSIONAL'] as const;

export const UserSchema = z
  .object({
    id: z.string().uuid(),
    email: z.string(),
    name: z.string(),
    role: z.enum(roles),
    authProvider: z.enum(authProviders).optional(),
    editorLevel: z.enum(editorLevels).optional(),
    language: z.string().optional(),
    comment: z.string().optional(),
    address: z.string().optional(),
    readOnly: z.boolean().optional(),
    restricted: z.boolean().optional(),
    use2FA: z.boolean().optional(),
    forceToSet2FA: z.boolean().optional(),
    ssoLoginEnabled: z.boolean().optional(),
    usernamePasswordLoginEnabled: z.boolean().optional(),
    magicCodeLoginEnabled: z.boolean().optional(),
    oauthPasswordFlowEnabled: z.boolean().optional(),
    trustedAdmin: z.boolean().optional(),
    lastLogin: z.string().openapi({ format: 'date-time' }).optional(),
    lastActivity: z.string().openapi({ format: 'date-time' }).optional(),
    createdDate: z.string().openapi({ format: 'date-time' }).optional(),
    customerId: z.number().int().optional(),
    customer: z
      .object({ id: z.number().int(), name: z.string().optional(), expirationDate: z.string().optional(), force2FA: z.boolean().optional() })
      .optional(),
  })
  .openapi('User');

export type User = z.infer<typeof UserSchema>;
