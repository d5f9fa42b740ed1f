import { z } from '@hono/zod-openapi';
import { requiredBooleanQuery } from '@/server/http/query-params.schemas';
import { defineRoute } from '@/server/http/route';
import { userEmail } from '@/server/http/wire.schemas';
import { customerIdParam, json, pageOf, ScopedListQuerySchema, SelectQuerySchema } from '@/server/http/list-query';
import { PROTECTED_OPERATION_LIMIT, conflictError } from '@/server/http/responses';
import {
  PASSWORD_MAX,
  PASSWORD_MIN,
  SimpleUserSchema,
  TwoFactorSecretSchema,
  UserCreateSchema,
  UserSchema,
  UserUpdateSchema,
} from './users.schemas';
import { teamIdsParam, TeamReadQueryExtension, SELECT_TEAM_IDS_EXEMPTION, TEAM_IDS_EXEMPTION } from '@/server/modules/teams/teams.schemas';

const tags = ['Users'];
const userResponse = (description: string) => ({ description, ...json(UserSchema) });
const protectedNote = 'Protected operation: may require `g-recaptcha-response` and, for callers with a second factor, `x-totp`.';
const IdParams = z.object({
  id: z
    .string()
    .uuid()
    .openapi({ param: { name: 'id', in: 'path' } }),
});
const EmailQuery = z.object({ email: userEmail.openapi({ description: "The user's e-mail (its key)" }), customerId: customerIdParam });
const PROFILE_PICTURE_BODY_LIMIT = 2 * 1024 * 1024 + 64 * 1024;
const deleted = { 204: { description: 'Deleted' } };
const payloadErrors = {
  413: { description: 'The picture is larger than 2 MB' },
  415: { description: 'Not a PNG, JPEG, WebP or GIF image' },
};

export const getMeRoute = defineRoute(
  { minRole: 'DEVICE_USER', tenant: 'none' },
  {
    method: 'get',
    path: '/api/v2/user/me',
    operationId: 'getCurrentUser',
    tags,
    summary: 'The signed-in user',
    description:
      '`forceToSet2FA` is true while the user must enrol a second factor. `select=userInterfaceProfile(*)` answers the UI profile rules.',
    request: { query: SelectQuerySchema },
    responses: { 200: userResponse('The signed-in user') },
  },
);

export const listUsersRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'get',
    path: '/api/v2/user',
    operationId: 'listUsers',
    tags,
    summary: 'Users of the selected tenant(s), paged',
    request: { query: ScopedListQuerySchema.extend(TeamReadQueryExtension) },
    responses: { 200: { description: 'A page of users', ...json(pageOf(UserSchema, 'UserPage')) } },
  },
  { notResourceIds: SELECT_TEAM_IDS_EXEMPTION },
);

export const getUserRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'get',
    path: '/api/v2/user/{id}',
    operationId: 'getUser',
    tags,
    summary: 'One user',
    request: { params: IdParams, query: SelectQuerySchema.extend({ customerId: customerIdParam }) },
    responses: { 200: userResponse('The user') },
  },
  { resourceIds: { 'path.id': 'user' } },
);

export const getProfilePictureRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'get',
    path: '/api/v2/user/{id}/profilePicture',
    operationId: 'getUserProfilePicture',
    tags,
    summary: "A user's profile picture (the user's profilePictureApiPath)",
    request: { params: IdParams, query: z.object({ customerId: customerIdParam }) },
    responses: {
      200: { description: 'The image', content: { 'image/*': { schema: z.string().openapi({ format: 'binary' }) } } },
    },
  },
  { resourceIds: { 'path.id': 'user' } },
);

export const uploadProfilePictureRoute = defineRoute(
  { minRole: 'DEVICE_USER', tenant: 'none' },
  {
    method: 'post',
    path: '/api/v2/user/profilePicture',
    operationId: 'uploadProfilePicture',
    tags,
    summary: "Upload the caller's profile picture (replaces the previous one)",
    request: {
      body: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: z.object({
              file: z
                .custom<File>((v) => v instanceof File, { message: 'A file part named "file" is required' })
                .openapi({ type: 'string', format: 'binary' }),
            }),
          },
        },
      },
    },
    responses: { 200: userResponse('The caller, now with hasProfilePicture'), ...payloadErrors },
  },
  // The picture (at most 2 MB, checked by the service) plus the multipart framing.
  { bodyLimit: PROFILE_PICTURE_BODY_LIMIT },
);

export const deleteProfilePictureRoute = defineRoute(
  { minRole: 'DEVICE_USER', tenant: 'none' },
  {
    method: 'delete',
    path: '/api/v2/user/profilePicture',
    operationId: 'deleteProfilePicture',
    tags,
    summary: "Remove the caller's profile picture",
    responses: { ...deleted },
  },
);

export const simpleUsersRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'get',
    path: '/api/user/simple',
    operationId: 'listSimpleUsers',
    tags,
    summary: 'E-mail and name of every user of the selected tenant(s)',
    request: { query: z.object({ customerId: customerIdParam }) },
    responses: { 200: { description: 'Users, by name', ...json(z.array(SimpleUserSchema)) } },
  },
);

export const createUserRoute = defineRoute(
  { minRole: 'OWNER', tenant: 'scoped' },
  {
    method: 'post',
    path: '/api/user',
    operationId: 'createUser',
    tags,
    summary: 'Create a user',
    description: `OWNER: in its own (or an owned member) customer, roles up to OWNER; \`customerId\` is required (400 \`user.error.customerIdRequired\`). ADMIN: any customer (default: its own), any role. \`teamIds\`: \`<teamId>[:<readOnly>]\`, comma-separated. A LOCAL user is e-mailed a password-setup link (valid 7 days). ${protectedNote}`,
    request: {
      query: z.object({ customerId: customerIdParam, teamIds: teamIdsParam }),
      body: { required: true, ...json(UserCreateSchema) },
    },
    responses: { 201: userResponse('The created user'), ...conflictError },
  },
  { rateLimited: PROTECTED_OPERATION_LIMIT, notResourceIds: TEAM_IDS_EXEMPTION },
);

export const updateUserRoute = defineRoute(
  { minRole: 'DEVICE_USER', tenant: 'scoped' },
  {
    method: 'put',
    path: '/api/user',
    operationId: 'updateUser',
    tags,
    summary: 'Update a user (partial)',
    description:
      'OWNER/ADMIN: other users up to their own role. Everyone: their own name, language, editorLevel, comment, address. ' +
      '`authProvider` is immutable; `use2FA` accepts only false (reset). Only fields whose value changes count. ' +
      `Changing password, use2FA, readOnly, restricted, trustedAdmin or raising the role to OWNER/ADMIN: ${protectedNote} A new password ends the user's sessions.`,
    request: { query: EmailQuery, body: { required: true, ...json(UserUpdateSchema) } },
    responses: { 200: userResponse('The updated user'), ...conflictError },
  },
  { rateLimited: PROTECTED_OPERATION_LIMIT },
);

export const deleteUserRoute = defineRoute(
  { minRole: 'OWNER', tenant: 'scoped' },
  {
    method: 'delete',
    path: '/api/user',
    operationId: 'deleteUser',
    tags,
    summary: 'Delete a user; their sessions end',
    description: protectedNote,
    request: { query: EmailQuery },
    responses: { ...deleted, ...conflictError },
  },
  { rateLimited: PROTECTED_OPERATION_LIMIT },
);

export const deleteMyAccountRoute = defineRoute(
  { minRole: 'DEVICE_USER', tenant: 'none' },
  {
    method: 'delete',
    path: '/api/user/myAccount',
    operationId: 'deleteMyAccount',
    tags,
    summary: "Delete the caller's own account",
    description: `Refused (409) for the service's last ADMIN and a customer's last OWNER. ${protectedNote}`,
    responses: { ...deleted, ...conflictError },
  },
  { rateLimited: PROTECTED_OPERATION_LIMIT },
);

export const changePasswordRoute = defineRoute(
  { minRole: 'DEVICE_USER', tenant: 'none' },
  {
    method: 'post',
    path: '/api/user/password',
    operationId: 'changePassword',
    tags,
    summary: "Change the caller's password; every session of the caller ends",
    description: protectedNote,
    request: {
      query: z.object({
        oldPassword: z.string().min(1).max(PASSWORD_MAX),
        newPassword: z.string().min(PASSWORD_MIN).max(PASSWORD_MAX),
      }),
    },
    responses: { 200: userResponse('The caller') },
  },
  { rateLimited: `wrong old passwords, per user; ${PROTECTED_OPERATION_LIMIT}` },
);

export const createTwoFactorSecretRoute = defineRoute(
  { minRole: 'DEVICE_USER', tenant: 'none' },
  {
    method: 'post',
    path: '/api/user/2fa/secret',
    operationId: 'createTwoFactorSecret',
    tags,
    summary: 'Start second-factor enrolment: a new pending TOTP secret',
    description: 'Confirm it with POST /api/user/2fa?enable=true&totp=<code>. Refused (409) while a second factor is enabled.',
    responses: { 200: { description: 'The pending secret', ...json(TwoFactorSecretSchema) }, ...conflictError },
  },
);

export const setTwoFactorRoute = defineRoute(
  { minRole: 'DEVICE_USER', tenant: 'none' },
  {
    method: 'post',
    path: '/api/user/2fa',
    operationId: 'setTwoFactor',
    tags,
    summary: "Enable (confirm the pending secret) or disable the caller's second factor",
    description: `enable=true: \`totp\` is a code of the pending secret. enable=false: the current code (\`totp\` or \`x-totp\`); refused (409) while the customer forces 2FA. ${protectedNote}`,
    request: {
      query: z.object({
        totp: z
          .string()
          .regex(/^\d{6}$/)
          .optional(),
        enable: requiredBooleanQuery('true: enable the second factor (with a code); false: disable it'),
      }),
    },
    responses: { 200: userResponse('The caller'), ...conflictError },
  },
  { rateLimited: PROTECTED_OPERATION_LIMIT },
);
