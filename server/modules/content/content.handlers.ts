import { idAddressedContext } from '@/server/auth/tenant-scope';
import { listQuery } from '@/server/http/list-query';
import type { RouteRegistrar } from '@/server/http/route';
import { serviceContext } from '@/server/http/service-context';
import { bulkContentTags, contentUsageDetails, deviceOnlineOfflineRatio } from './content.bulk';
import {
  createContentRoute,
  createSimpleLoopRoute,
  deleteRoutes,
  duplicateContentRoute,
  duplicateSimpleLoopRoute,
  lockRoutes,
  ratioRoutes,
  updateContentRoute,
  updateSimpleLoopRoute,
  usageRoutes,
} from './content-items.routes';
import {
  addContentTagsRoute,
  createFromTemplateRoute,
  getDeviceContentRoute,
  listDeviceContentRoute,
  listTemplatesRoute,
  removeContentTagsRoute,
  setBulkContentTagsRoute,
  setContentTagsRoute,
} from './content.routes';
import {
  createDeviceContent,
  deleteDeviceContentItem,
  duplicateDeviceContent,
  getDeviceContent,
  listDeviceContent,
  setContentLocked,
  setContentTags,
  updateDeviceContentItem,
} from './content.service';
import { createFromTemplate, listTemplates } from './content-templates.service';

export function registerContentRoutes(app: RouteRegistrar): void {
  app.openapi(listDeviceContentRoute, async (c) => c.json(await listDeviceContent(serviceContext(c), listQuery(c)), 200));

  app.openapi(getDeviceContentRoute, async (c) =>
    c.json(await getDeviceContent(serviceContext(c), c.req.valid('param').id, c.req.valid('query').select), 200),
  );

  app.openapi(setContentTagsRoute, async (c) =>
    c.json(await setContentTags(await idAddressedContext(serviceContext(c)), c.req.valid('param').id, c.req.valid('json')), 200),
  );

  for (const [verb, route] of [
    ['add', addContentTagsRoute],
    ['set', setBulkContentTagsRoute],
    ['remove', removeContentTagsRoute],
  ] as const) {
    app.openapi(route, async (c) =>
      c.json(await bulkContentTags(serviceContext(c), { verb, search: c.req.valid('query').search, tags: c.req.valid('json') }), 200),
    );
  }

  app.openapi(listTemplatesRoute, async (c) => c.json(await listTemplates(serviceContext(c), listQuery(c)), 200));

  app.openapi(createFromTemplateRoute, async (c) =>
    c.json(
      await createFromTemplate(serviceContext(c), {
        templateId: c.req.valid('param').templateId,
        contentGroupId: c.req.valid('query').contentGroupId,
        name: c.req.valid('json').name,
      }),
      201,
    ),
  );

  app.openapi(createContentRoute, async (c) => {
    const { contentGroupId, teamIds } = c.req.valid('query');

    return c.json(
      await createDeviceContent(serviceContext(c), { ...c.req.valid('json'), deviceContentType: 'content', contentGroupId, teamIds }),
      201,
    );
  });

  app.openapi(createSimpleLoopRoute, async (c) => {
    const { contentGroupId, teamIds } = c.req.valid('query');

    return c.json(
      await createDeviceContent(serviceContext(c), { ...c.req.valid('json'), deviceContentType: 'simpleLoop', contentGroupId, teamIds }),
      201,
    );
  });

  app.openapi(updateContentRoute, async (c) =>
    c.json(
      await updateDeviceContentItem(
        await idAddressedContext(serviceContext(c)),
        'content',
        c.req.valid('param').id,
        c.req.valid('json'),
        c.req.valid('query').autoSave === true,
      ),
      200,
    ),
  );

  app.openapi(updateSimpleLoopRoute, async (c) =>
    c.json(
      await updateDeviceContentItem(
        await idAddressedContext(serviceContext(c)),
        'simpleLoop',
        c.req.valid('param').id,
        c.req.valid('json'),
        c.req.valid('query').autoSave === true,
      ),
      200,
    ),
  );

  app.openapi(duplicateContentRoute, async (c) =>
    c.json(
      await duplicateDeviceContent(
        await idAddressedContext(serviceContext(c)),
        'content',
        c.req.valid('param').id,
        c.req.valid('json').name,
      ),
      201,
    ),
  );

  app.openapi(duplicateSimpleLoopRoute, async (c) => {
    await duplicateDeviceContent(
      await idAddressedContext(serviceContext(c)),
      'simpleLoop',
      c.req.valid('param').id,
      c.req.valid('json').name,
    );

    return c.body(null, 204);
  });

  for (const kind of ['content', 'simpleLoop'] as const) {
    app.openapi(lockRoutes[kind], async (c) => {
      const { id, locked } = c.req.valid('param');

      return c.json(await setContentLocked(await idAddressedContext(serviceContext(c)), kind, id, locked === 'true'), 200);
    });

    app.openapi(deleteRoutes[kind], async (c) => {
      await deleteDeviceContentItem(await idAddressedContext(serviceContext(c)), kind, c.req.valid('param').id);

      return c.body(null, 204);
    });

    app.openapi(usageRoutes[kind], async (c) =>
      c.json(await contentUsageDetails(serviceContext(c), kind, c.req.valid('query').search), 200),
    );

    app.openapi(ratioRoutes[kind], async (c) =>
      c.json(await deviceOnlineOfflineRatio(serviceContext(c), kind, c.req.valid('query').search), 200),
    );
  }
}
