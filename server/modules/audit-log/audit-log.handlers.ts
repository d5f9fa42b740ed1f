import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '@/server/http/context';
import { serviceContext } from '@/server/http/service-context';
import { exportAuditLogCsvRoute, listAuditLogRoute } from './audit-log.routes';
import { exportAuditLogCsv, listAuditLog } from './audit-log.service';

export function registerAuditLogRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(listAuditLogRoute, async (c) => c.json(await listAuditLog(serviceContext(c), c.req.valid('query')), 200));

  app.openapi(exportAuditLogCsvRoute, async (c) =>
    c.body(await exportAuditLogCsv(serviceContext(c), c.req.valid('query')), 200, {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': 'attachment; filename="audit-log.csv"',
    }),
  );
}
