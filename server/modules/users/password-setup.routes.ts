import { z } from '@hono/zod-openapi';
import { defineRoute } from '@/server/http/route';
import { ErrorSchema } from '@/server/http/errors';
import { customerIdParam } from '@/server/http/list-query';
import { emailAddress, userEmail } from '@/server/http/wire.schemas';
import { linkStates } from './password-setup.service';
import { PASSWORD_MAX, PASSWORD_MIN } from './users.schemas';

const tags = ['Users'];
const error = (description: string) => ({ description, content: { 'application/json': { schema: ErrorSchema } } });
const token = z.string().min(16).max(128).openapi({ description: 'The token of the link in the password-setup e-mail' });
const linkErrors = {
  400: error('Invalid input'),
  404: error('No such link'),
  429: error('Too many unknown links from this address; see Retry-After'),
};

const PasswordSetupStateSchema = z
  .object({
    state: z
      .enum(linkStates)
      .openapi({ description: 'VALID: usable. USED, EXPIRED (after 7 days), SUPERSEDED (a newer link was sent): not usable' }),
    email: emailAddress.openapi({ description: 'The user the link is for' }),
    expiresAt: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('PasswordSetupState');

const ResentLinkSchema = z
  .object({
    email: emailAddress.openapi({ description: 'Who the link is for' }),
    delivery: z.enum(['MAIL', 'OUTBOX']).openapi({
      description: 'MAIL: queued for the configured SMTP server. OUTBOX: no SMTP server is configured; the message waits in the outbox',
    }),
  })
  .openapi('ResentPasswordSetupLink');

const CopiedLinkSchema = z
  .object({
    email: emailAddress,
    link: z.string().openapi({ description: 'The set-password link (a secret: hand it to the user only)' }),
    expiresAt: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('CopiedPasswordSetupLink');

export const getPasswordSetupRoute = defineRoute(
  { public: true },
  {
    method: 'get',
    path: '/public-api/user/passwordSetup',
    operationId: 'getPasswordSetupLink',
    tags,
    summary: 'The state of a password-setup link, and the e-mail it is for',
    request: { query: z.object({ token }) },
    responses: { 200: { description: 'The link', content: { 'application/json': { schema: PasswordSetupStateSchema } } }, ...linkErrors },
  },
  { rateLimited: 'unknown link tokens, per client address' },
);

export const completePasswordSetupRoute = defineRoute(
  { public: true },
  {
    method: 'post',
    path: '/public-api/user/passwordSetup',
    operationId: 'completePasswordSetup',
    tags,
    summary: 'Choose a password with a password-setup link (once); every session of the user ends',
    request: {
      body: {
        required: true,
        content: { 'application/json': { schema: z.object({ token, password: z.string().min(PASSWORD_MIN).max(PASSWORD_MAX) }) } },
      },
    },
    responses: {
      200: { description: 'The password is set', content: { 'application/json': { schema: z.object({ email: emailAddress }) } } },
      ...linkErrors,
      403: error("The user's customer is restricted"),
      409: error('The link was used, has expired or was superseded by a newer one'),
    },
  },
  { rateLimited: 'unknown link tokens, per client address' },
);

export const resendPasswordSetupRoute = defineRoute(
  { minRole: 'OWNER', tenant: 'scoped' },
  {
    method: 'post',
    path: '/api/user/resendPasswordSetup',
    operationId: 'resendPasswordSetup',
    tags,
    summary: 'E-mail the user a new password-setup link (older links stop working)',
    description: 'OWNER: users of its reach up to OWNER. ADMIN: any user. Only LOCAL users have a password.',
    request: { query: z.object({ email: userEmail.openapi({ description: "The user's e-mail" }), customerId: customerIdParam }) },
    responses: {
      200: {
        description: 'A new link is on its way, or waits in the outbox',
        content: { 'application/json': { schema: ResentLinkSchema } },
      },
    },
  },
);

export const copyPasswordSetupLinkRoute = defineRoute(
  { minRole: 'OWNER', tenant: 'scoped' },
  {
    method: 'post',
    path: '/api/user/passwordSetupLink',
    operationId: 'copyPasswordSetupLink',
    tags,
    summary: 'A new password-setup link for the caller to hand over (not e-mailed; older links stop working)',
    description:
      "For a service without SMTP. ADMIN: any LOCAL user. OWNER: users of its own tenant up to OWNER (403 `passwordSetup.error.notOwnTenant` for a network member's user). Audited as `copyPasswordSetupLink`, without the link. The answer is not cached (`Cache-Control: no-store`).",
    request: { query: z.object({ email: userEmail.openapi({ description: "The user's e-mail" }), customerId: customerIdParam }) },
    responses: {
      200: { description: 'The link', content: { 'application/json': { schema: CopiedLinkSchema } } },
      403: error("Not a super admin nor an administrator of the user's own tenant"),
    },
  },
);
