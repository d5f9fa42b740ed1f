import { OpenAPIHono } from '@hono/zod-openapi';
import { ServiceUnavailableError } from '@/server/errors';
import { registerApiDocs } from './api-docs';
import type { AppDeps, AppEnv } from './context';
import { errorResponse, validationHook } from './errors';
import { httpMetrics } from './http-metrics';
import { attachExamples } from './openapi-examples';
import { notFoundOrMethodNotAllowed } from './method-not-allowed';
import { requestContext } from './request-context';
import { responseConformance, type ResponseDrift } from './response-conformance';
import { routeTable } from './route';
import { registerModuleRoutes, type RouteSource } from './route-order';

export type App = OpenAPIHono<AppEnv>;

export type AppOptions = {
  /** Tests: every JSON answer is checked against its route's declared schema; mismatches go here. */
  onResponseDrift?: (drift: ResponseDrift) => void;
};

/**
 * The one Hono app serving /api, /public-api, /oauth and the health checks, with the routes `sources` declare.
 * server/composition.ts builds it from the module list (this folder names no module).
 */
export function createHttpApp(deps: AppDeps, sources: readonly RouteSource[], options: AppOptions = {}): App {
  // strict: false matches paths with and without a trailing slash (DECISIONS §2).
  const app = new OpenAPIHono<AppEnv>({ strict: false, defaultHook: validationHook as never });

  // First: the time measured includes every other middleware.
  if (deps.metrics) app.use('*', httpMetrics(deps.metrics));
  if (options.onResponseDrift) app.use('*', responseConformance(options.onResponseDrift));
  app.use('*', requestContext(deps));
  // The paths that answer while the server starts (liveness, and readiness saying "not yet"): the routes that say so.
  const answerWhileStarting = new Set(routeTable.filter((route) => route.answersWhileStarting).map((route) => route.path));
  app.use('*', async (c, next) => {
    if (deps.starting?.() && !answerWhileStarting.has(c.req.path.replace(/(.)\/+$/, '$1')))
      throw new ServiceUnavailableError('The service is starting or stopping; try again shortly', 5);
    await next();
  });
  app.onError((err, c) => errorResponse(c, err));
  app.notFound(notFoundOrMethodNotAllowed(() => app.routes));

  registerModuleRoutes(app, sources);
  attachExamples(app.openAPIRegistry);

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
    description:
      "OAuth client credentials (`default-client` or `short-lived`), or a device's `deviceId:deviceSecret` (grant_type=client_credentials)",
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'webhookApiKey', {
    type: 'apiKey',
    in: 'header',
    name: 'X-Webhook-Apikey',
    description: 'A webhook API key (POST /api/webhooks/apikey); the GET trigger takes it as the `apiKey` query parameter',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'metricsToken', {
    type: 'http',
    scheme: 'bearer',
    description: 'The `METRICS_TOKEN` of the configuration (GET /metrics only); none on `METRICS_PORT`',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'deviceToken', {
    type: 'http',
    scheme: 'bearer',
    description:
      'A device access token from POST /oauth/token with grant_type=client_credentials; accepted only by the player API (/api/display/**)',
  });
  app.doc31('/api/openapi.json', {
    openapi: '3.1.0',
    info: {
      title: 'Digital Signage Management API',
      version: '1.0.0',
      description:
        'Multi-tenant API for screens, media, content, channels and tenants. Errors follow `{status, key, message, details}`. ' +
        'Every operation lists every status it can answer; besides those, a method a known path does not have answers ' +
        '405 `request.error.methodNotAllowed` with `Allow`, an unknown path 404 `request.error.notFound`, and an unexpected failure ' +
        '500 `server.error.internal` (a bug: never declared). While the service starts or stops every operation but the health checks answers ' +
        '503 `server.error.unavailable` with `Retry-After`.',
      license: { name: 'Proprietary' },
    },
    servers: [{ url: '/', description: 'The service that serves this document' }],
    tags: [
      { name: 'Authentication', description: 'OAuth 2.0 token endpoint, revocation and public keys' },
      { name: 'Users', description: 'People who sign in to the console, their roles, second factors and profile pictures' },
      { name: 'Customers', description: 'Tenants and network owners' },
      { name: 'Resource limits', description: 'Per-tier caps on what a tenant may create, and their usage' },
      { name: 'System', description: 'Health and readiness' },
      {
        name: 'Player',
        description: 'The device-facing API (spec 4): registration, credentials, status, heartbeat and commands; device tokens only',
      },
    ],
  });
  registerApiDocs(app);

  return app;
}
