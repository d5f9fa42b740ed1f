import type { RouteRegistrar } from '@/server/http/route';
import { listQuery } from '@/server/http/list-query';
import { serviceContext } from '@/server/http/service-context';
import {
  createQuickFilterRoute,
  deleteQuickFilterRoute,
  getQuickFilterRoute,
  listQuickFiltersRoute,
  updateQuickFilterRoute,
} from './quick-filters.routes';
import { createQuickFilter, deleteQuickFilter, getQuickFilter, listQuickFilters, updateQuickFilter } from './quick-filters.service';

export function registerQuickFilterRoutes(app: RouteRegistrar): void {
  app.openapi(listQuickFiltersRoute, async (c) => c.json(await listQuickFilters(serviceContext(c), listQuery(c)), 200));

  app.openapi(getQuickFilterRoute, async (c) =>
    c.json(await getQuickFilter(serviceContext(c), { id: c.req.valid('param').id, select: c.req.valid('query').select }), 200),
  );

  app.openapi(createQuickFilterRoute, async (c) =>
    c.json(await createQuickFilter(serviceContext(c), { body: c.req.valid('json'), teamIds: c.req.valid('query').teamIds }), 201),
  );

  app.openapi(updateQuickFilterRoute, async (c) =>
    c.json(await updateQuickFilter(serviceContext(c), { id: c.req.valid('query').quickFilterId, body: c.req.valid('json') }), 200),
  );

  app.openapi(deleteQuickFilterRoute, async (c) => {
    await deleteQuickFilter(serviceContext(c), { id: c.req.valid('query').quickFilterId });

    return c.body(null, 204);
  });
}
