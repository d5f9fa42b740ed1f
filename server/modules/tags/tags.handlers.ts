import type { RouteRegistrar } from '@/server/http/route';
import { serviceContext } from '@/server/http/service-context';
import { createTagRoute, deleteTagRoute, listTagsRoute, suggestTagsRoute, updateTagRoute } from './tags.routes';
import { createTag, deleteTag, listTags, suggestTags, updateTag } from './tags.service';

export function registerTagRoutes(app: RouteRegistrar): void {
  // /suggest before any pattern route of /api/tag.
  app.openapi(suggestTagsRoute, async (c) => c.json(await suggestTags(serviceContext(c), c.req.valid('query')), 200));

  app.openapi(listTagsRoute, async (c) => c.json(await listTags(serviceContext(c), c.req.valid('query')), 200));

  app.openapi(createTagRoute, async (c) =>
    c.json(await createTag(serviceContext(c), { tagType: c.req.valid('query').tagType, body: c.req.valid('json') }), 201),
  );

  app.openapi(updateTagRoute, async (c) => {
    const { tag, tagType } = c.req.valid('query');

    return c.json(await updateTag(serviceContext(c), { tag, tagType, body: c.req.valid('json') }), 200);
  });

  app.openapi(deleteTagRoute, async (c) => {
    const { tag, tagType } = c.req.valid('query');
    await deleteTag(serviceContext(c), { tag, tagType });

    return c.body(null, 204);
  });
}
