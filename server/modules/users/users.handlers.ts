import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '@/server/http/context';
import { listQuery } from '@/server/http/list-query';
import { serviceContext } from '@/server/http/service-context';
import * as account from './user-account.service';
import * as routes from './users.routes';
import * as service from './users.service';

export function registerUserRoutes(app: OpenAPIHono<AppEnv>) {
  // /me before /{id}: both match GET /api/v2/user/me and the first registered answers.
  app.openapi(routes.getMeRoute, async (c) => c.json(await service.getCurrentUser(serviceContext(c), c.req.valid('query')), 200));

  app.openapi(routes.listUsersRoute, async (c) => c.json(await service.listUsers(serviceContext(c), listQuery(c)), 200));

  app.openapi(routes.getUserRoute, async (c) => {
    const input = { id: c.req.valid('param').id, select: c.req.valid('query').select };

    return c.json(await service.getUser(serviceContext(c), input), 200);
  });

  app.openapi(routes.getProfilePictureRoute, async (c) => {
    const picture = await account.getProfilePicture(serviceContext(c), { id: c.req.valid('param').id });
    const headers = { 'content-type': picture.contentType, 'cache-control': 'private, no-cache', 'x-content-type-options': 'nosniff' };

    return c.body(new Uint8Array(picture.data), 200, headers);
  });

  app.openapi(routes.uploadProfilePictureRoute, async (c) =>
    c.json(await account.uploadProfilePicture(serviceContext(c), { file: c.req.valid('form').file }), 200),
  );

  app.openapi(routes.deleteProfilePictureRoute, async (c) => {
    await account.deleteProfilePicture(serviceContext(c));

    return c.body(null, 204);
  });

  app.openapi(routes.simpleUsersRoute, async (c) => c.json(await service.listSimpleUsers(serviceContext(c)), 200));

  app.openapi(routes.createUserRoute, async (c) => {
    const input = { body: c.req.valid('json'), teamIds: c.req.valid('query').teamIds };

    return c.json(await service.createUser(serviceContext(c), input), 201);
  });

  app.openapi(routes.updateUserRoute, async (c) => {
    const input = { email: c.req.valid('query').email, body: c.req.valid('json') };

    return c.json(await service.updateUser(serviceContext(c), input), 200);
  });

  app.openapi(routes.deleteUserRoute, async (c) => {
    await service.deleteUser(serviceContext(c), { email: c.req.valid('query').email });

    return c.body(null, 204);
  });

  app.openapi(routes.deleteMyAccountRoute, async (c) => {
    await service.deleteMyAccount(serviceContext(c));

    return c.body(null, 204);
  });

  app.openapi(routes.changePasswordRoute, async (c) => c.json(await account.changePassword(serviceContext(c), c.req.valid('query')), 200));

  app.openapi(routes.createTwoFactorSecretRoute, async (c) => c.json(await account.createTwoFactorSecret(serviceContext(c)), 200));

  app.openapi(routes.setTwoFactorRoute, async (c) => {
    const { totp, enable } = c.req.valid('query');

    return c.json(await account.setTwoFactor(serviceContext(c), { totp, enable }), 200);
  });
}
