import { z } from '@hono/zod-openapi';
import { projected } from '@/server/query/projection.schemas';
import { roles } from '@/server/context/roles';
import { updateBody } from '@/server/http/update-body';
import { emailAddress, intId, resourceName, userEmail } from '@/server/http/wire.schemas';

/** `<IDP_PROVIDER>` of the spec is the open-source identity provider KEYCLOAK. */
export const authProviders = ['LOCAL', 'LDAP', 'SAML', 'KEYCLOAK'] as const;
export const editorLevels = ['BASIC', 'ADVANCED', 'PROFESSIONAL'] as const;

export const PASSWORD_MIN = 8;
/** Argon2 input is bounded so a huge body cannot buy seconds of hashing. */
export const PASSWORD_MAX = 256;

export const UserSchema = projected(
  z.object({
    id: z.string().uuid(),
    email: emailAddress,
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
    forceToSet2FA: z.boolean().optional().openapi({
      description: 'True while the user must enrol a second factor: set for the user, or the customer has force2FA, and use2FA is false',
    }),
    ssoLoginEnabled: z.boolean().optional(),
    usernamePasswordLoginEnabled: z.boolean().optional(),
    magicCodeLoginEnabled: z.boolean().optional(),
    oauthPasswordFlowEnabled: z.boolean().optional(),
    trustedAdmin: z.boolean().optional(),
    lastLogin: z.string().openapi({ format: 'date-time' }).optional(),
    lastActivity: z.string().openapi({ format: 'date-time' }).optional(),
    createdDate: z.string().openapi({ format: 'date-time' }).optional(),
    customerId: intId.optional(),
    hasProfilePicture: z.boolean().optional(),
    profilePictureApiPath: z.string().optional().openapi({ description: 'GET path of the picture; present when hasProfilePicture' }),
    active: z.boolean().optional().openapi({ description: 'The customer is neither restricted nor past its expirationDate' }),
    customer: z
      .object({ id: intId, name: z.string().optional(), expirationDate: z.string().optional(), force2FA: z.boolean().optional() })
      .optional(),
    userInterfaceProfile: z
      .object({
        id: intId,
        name: z.string().optional(),
        comment: z.string().optional(),
        hiddenUIElementRules: z.record(z.string(), z.unknown()).optional(),
        customerId: intId.optional(),
      })
      .optional(),
  }),
).openapi('User');

export type User = z.infer<typeof UserSchema>;

const password = z.string().min(PASSWORD_MIN).max(PASSWORD_MAX);
const email = userEmail;

export const UserCreateSchema = z
  .object({
    email,
    name: resourceName,
    role: z.enum(roles),
    password: password
      .optional()
      .openapi({ description: `Write-only, at least ${PASSWORD_MIN} characters; required unless the user is SSO-only` }),
    authProvider: z.enum(authProviders).optional(),
    language: z.string().max(16).optional(),
    editorLevel: z.enum(editorLevels).optional(),
    comment: z.string().max(2000).optional(),
    address: z.string().max(2000).optional(),
    readOnly: z.boolean().optional(),
    restricted: z.boolean().optional(),
    forceToSet2FA: z.boolean().optional(),
    ssoLoginEnabled: z.boolean().optional(),
    usernamePasswordLoginEnabled: z.boolean().optional(),
    magicCodeLoginEnabled: z.boolean().optional(),
    oauthPasswordFlowEnabled: z.boolean().optional(),
    trustedAdmin: z.boolean().optional(),
  })
  .openapi('UserCreate', {
    description:
      'A LOCAL user needs `password` unless it signs in only through SSO; `trustedAdmin` only with role ADMIN; an OWNER or ADMIN joins no team (`teamIds`)',
  });

export const UserUpdateSchema = updateBody('UserUpdate', {
  ...UserCreateSchema.shape,
  password: password.openapi({ description: `Write-only, at least ${PASSWORD_MIN} characters; a LOCAL user's new password` }),
  use2FA: z.literal(false).openapi({ description: 'Only false: resets the second factor (enrolment goes through /api/user/2fa)' }),
});

export type UserCreate = z.infer<typeof UserCreateSchema>;
export type UserUpdate = z.infer<typeof UserUpdateSchema>;

/** The fields every user may change on their own account. */
export const SELF_EDITABLE_FIELDS = ['name', 'language', 'editorLevel', 'comment', 'address'] as const;

export const SimpleUserSchema = z.object({ email: emailAddress, name: z.string() }).openapi('SimpleUser');

export const TwoFactorSecretSchema = z
  .object({
    secret: z.string().openapi({ description: 'Base32 secret' }),
    otpauthUrl: z.string().openapi({ description: '`otpauth://totp/...` for QR codes' }),
  })
  .openapi('TwoFactorSecret');
