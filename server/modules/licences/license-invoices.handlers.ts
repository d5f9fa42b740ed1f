import type { RouteRegistrar } from '@/server/http/route';
import { serviceContext } from '@/server/http/service-context';
import * as routes from './license-invoices.routes';
import * as invoices from './license-invoices.service';

export function registerInvoiceRoutes(app: RouteRegistrar): void {
  app.openapi(routes.getGlobalInvoiceRoute, async (c) =>
    c.json(await invoices.getGlobalInvoice(serviceContext(c), { date: c.req.valid('query').date }), 200),
  );

  app.openapi(routes.getCustomerInvoiceRoute, async (c) =>
    c.json(
      await invoices.getCustomerInvoice(serviceContext(c), {
        customerId: c.req.valid('param').customerId,
        date: c.req.valid('query').date,
      }),
      200,
    ),
  );
}
