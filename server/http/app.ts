import { OpenAPIHono } from '@hono/zod-openapi';
import { registerAuditLogRoutes } from '@/server/modules/audit-log/audit-log.handlers';
import { registerCustomerRoutes } from '@/server/modules/customers/customers.handlers';
import { registerFileFolderRoutes } from '@/server/modules/file-folders/file-folders.handlers';
import { registerFileRoutes } from '@/server/modules/files/files.handlers';
import { registerOAuthRoutes } from '@/server/modules/oauth/oauth.handlers';
import { registerQuickFilterRoutes } from '@/server/modules/quick-filters/quick-filters.handlers';
import { registerResourceLimitRoutes } from '@/server/modules/resource-limits/resource-limits.handlers';
import { registerSystemRoutes } from '@/server/modules/system/system.handlers';
import { registerTagRoutes } from '@/server/modules/tags/tags.handlers';
import { registerTeamRoutes } from '@/server/modules/teams/teams.handlers';
import { registerUploadRoutes } from '@/server/modules/uploads/uploads.handlers';
import { registerUiProfileRoutes } from '@/server/modules/ui-profiles/ui-profiles.handlers';
import { registerUserRoutes } from '@/server/modules/users/users.handlers';
import { registerPasswordSetupRoutes } from '@/server/modules/users/password-setup.handlers';
import { registerApiDocs } from './api-docs';
import type { AppDeps, AppEnv } from './context';
import { errorResponse, validationHook } from './errors';
import { requestContext } from './request-context';

export type App = OpenAPIHono<AppEnv>;

/** The one Hono app serving /api, /public-api, /oauth and the health checks. */
export function createApp(deps: AppDeps): App {
  // strict: false matches paths with and without a trailing slash (DECISIONS §2).
  const app = new OpenAPIHono<AppEnv>({ strict: false, defaultHook: validationHook as never });

  app.use('*', requestContext(deps));
  app.onError((err, c) => errorResponse(c, err));
  app.notFound((c) => c.json({ status: 404, key: 'request.error.notFound', message: `No route for ${c.req.method} ${c.req.path}` }, 404));

  registerSystemRoutes(app);
  registerOAuthRoutes(app);
  registerTeamRoutes(app); // before users: owns POST /api/user/updateTeamAssignments
  registerUserRoutes(app);
  registerPasswordSetupRoutes(app);
  registerUiProfileRoutes(app);
  registerResourceLimitRoutes(app); // before customers: GET /api/customer/{id} would shadow /api/customer/resourceLimits
  registerCustomerRoutes(app);
  registerAuditLogRoutes(app);
  // Media library. Uploads first: /api/v2/file/upload/... and /api/storage/... before the files' /{id} routes.
  registerUploadRoutes(app);
  registerFileRoutes(app);
  registerFileFolderRoutes(app);
  registerTagRoutes(app);
  registerQuickFilterRoutes(app);

  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'The `access_token` or `jwt_access_token` from POST /oauth/token',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'sessionCookie', {
    type: 'apiKey',
    in: 'cookie',
    name: 'next-auth.session-token',
    description: "The console's session (writes only from the console's own origin)",
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'clientBasic', {
    type: 'http',
    scheme: 'basic',
    description: 'OAuth client credentials (`default-client` or `short-lived`)',
  });
  app.doc31('/api/openapi.json', {
    openapi: '3.1.0',
    info: {
      title: 'Digital Signage Management API',
      version: '1.0.0',
      description: 'Multi-tenant API for screens, media, content, channels and tenants. Errors follow `{status, key, message, details}`.',
    },
    tags: [
      { name: 'Authentication', description: 'OAuth 2.0 token endpoint, revocation and public keys' },
      { name: 'Users' },
      { name: 'Customers', description: 'Tenants and network owners' },
      { name: 'Resource limits', description: 'Per-tier caps on what a tenant may create, and their usage' },
      { name: 'System', description: 'Health and readiness' },
    ],
  });
  registerApiDocs(app);

  return app;
}
