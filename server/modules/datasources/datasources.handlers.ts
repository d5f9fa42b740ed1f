import { listQuery, scopedQuery } from '@/server/http/list-query';
import type { RouteRegistrar } from '@/server/http/route';
import { deviceContext, serviceContext } from '@/server/http/service-context';
import { registerCalendarEventRoutes } from './calendar-events.routes';
import { writerOf } from './datasource-callers.handlers';
import * as data from './datasource-data.service';
import * as refresh from './datasource-refresh.service';
import * as routes from './datasources.routes';
import * as service from './datasources.service';

export function registerDatasourceRoutes(app: RouteRegistrar) {
  registerCalendarEventRoutes(app);

  app.openapi(routes.listDatasourcesRoute, async (c) => c.json(await service.listDatasources(serviceContext(c), listQuery(c)), 200));

  app.openapi(routes.getDatasourceRoute, async (c) =>
    c.json(await service.getDatasource(serviceContext(c), { id: c.req.valid('param').id, select: c.req.valid('query').select }), 200),
  );

  app.openapi(routes.datasourceUsageDetailsRoute, async (c) =>
    c.json(await service.datasourceUsageDetails(serviceContext(c), scopedQuery(c)), 200),
  );

  app.openapi(routes.getDatasourceDataRoute, async (c) =>
    c.json(await data.getDatasourceData(serviceContext(c), { id: c.req.valid('param').id }), 200),
  );

  app.openapi(routes.createDatasourceRoute, async (c) =>
    c.json(await service.createDatasource(serviceContext(c), { body: c.req.valid('json'), teamIds: c.req.valid('query').teamIds }), 201),
  );

  app.openapi(routes.testDatasourceRoute, async (c) =>
    c.json(await refresh.testDatasource(serviceContext(c), { body: c.req.valid('json') }), 200),
  );

  app.openapi(routes.updateDatasourceRoute, async (c) =>
    c.json(await service.updateDatasource(serviceContext(c), { id: c.req.valid('param').id, body: c.req.valid('json') }), 200),
  );

  app.openapi(routes.replaceDatasourceDataRoute, async (c) =>
    c.json(await data.replaceDatasourceData(serviceContext(c), { id: c.req.valid('param').id, document: c.req.valid('json') }), 200),
  );

  app.openapi(routes.refreshDatasourceRoute, async (c) =>
    c.json(await refresh.refreshDatasourceNow(serviceContext(c), { id: c.req.valid('param').id, sync: c.req.valid('query').sync }), 200),
  );

  app.openapi(routes.clearDatasourceCacheRoute, async (c) => {
    await refresh.clearDatasourceCache(serviceContext(c), { id: c.req.valid('param').id });

    return c.body(null, 204);
  });

  app.openapi(routes.deleteDatasourceRoute, async (c) => {
    await service.deleteDatasource(serviceContext(c), { id: c.req.valid('param').id });

    return c.body(null, 204);
  });

  app.openapi(routes.setDatasourceValueRoute, async (c) => {
    const { key, value } = c.req.valid('query');

    return c.json(await data.setDatasourceValue(writerOf(c), { id: c.req.valid('param').id, key, value }), 200);
  });

  app.openapi(routes.mergeDatasourceDataRoute, async (c) =>
    c.json(await data.mergeDatasourceData(writerOf(c), { id: c.req.valid('param').id, patch: c.req.valid('json') }), 200),
  );

  app.openapi(routes.readDeviceDatasourceRoute, async (c) => {
    const read = await data.readDatasourceForDevice(deviceContext(c), {
      id: c.req.valid('param').id,
      ifNoneMatch: c.req.header('if-none-match'),
    });
    c.header('ETag', read.etag);
    c.header('Cache-Control', 'no-cache');
    if (read.notModified) return c.body(null, 304);

    return c.json(read.document, 200);
  });
}
