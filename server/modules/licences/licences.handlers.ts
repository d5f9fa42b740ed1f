import { listQuery } from '@/server/http/list-query';
import type { RouteRegistrar } from '@/server/http/route';
import { serviceContext } from '@/server/http/service-context';
import * as routes from './licences.routes';
import * as reads from './license-order-reads.service';
import * as packages from './license-packages.service';
import * as service from './licences.service';

export function registerLicenceRoutes(app: RouteRegistrar): void {
  app.openapi(routes.listLicensePackagesRoute, async (c) =>
    c.json(await packages.listLicensePackages(serviceContext(c), listQuery(c)), 200),
  );

  app.openapi(routes.getLicensePackageRoute, async (c) =>
    c.json(await packages.getLicensePackage(serviceContext(c), { id: c.req.valid('param').id }), 200),
  );

  app.openapi(routes.createLicensePackageRoute, async (c) =>
    c.json(await packages.createLicensePackage(serviceContext(c), { body: c.req.valid('json') }), 201),
  );

  app.openapi(routes.updateLicensePackageRoute, async (c) =>
    c.json(await packages.updateLicensePackage(serviceContext(c), { id: c.req.valid('param').id, body: c.req.valid('json') }), 200),
  );

  app.openapi(routes.deleteLicensePackageRoute, async (c) => {
    await packages.deleteLicensePackage(serviceContext(c), { id: c.req.valid('param').id });

    return c.body(null, 204);
  });

  app.openapi(routes.listLicenseOrdersRoute, async (c) => c.json(await reads.listLicenseOrders(serviceContext(c), listQuery(c)), 200));

  app.openapi(routes.getLicenseOrderRoute, async (c) =>
    c.json(await reads.getLicenseOrder(serviceContext(c), { id: c.req.valid('param').id, select: c.req.valid('query').select }), 200),
  );

  app.openapi(routes.listCustomerLicenseOrdersRoute, async (c) =>
    c.json(await reads.listCustomerOrders(serviceContext(c), { customerId: c.req.valid('param').customerId, approvedOnly: false }), 200),
  );

  app.openapi(routes.listApprovedCustomerLicenseOrdersRoute, async (c) =>
    c.json(await reads.listCustomerOrders(serviceContext(c), { customerId: c.req.valid('param').customerId, approvedOnly: true }), 200),
  );

  app.openapi(routes.exportLicenseOrdersCsvRoute, async (c) =>
    c.body(await reads.exportLicenseOrdersCsv(serviceContext(c)), 200, {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': 'attachment; filename="license-orders.csv"',
    }),
  );

  app.openapi(routes.countUnapprovedLicenseOrdersRoute, async (c) =>
    c.json(await reads.countUnapprovedLicenseOrders(serviceContext(c)), 200),
  );

  app.openapi(routes.createLicenseOrderAsCustomerRoute, async (c) =>
    c.json(await service.createLicenseOrderAsCustomer(serviceContext(c), { body: c.req.valid('json') }), 201),
  );

  app.openapi(routes.createLicenseOrderRoute, async (c) =>
    c.json(await service.createLicenseOrder(serviceContext(c), { body: c.req.valid('json') }), 201),
  );

  app.openapi(routes.updateLicenseOrderRoute, async (c) =>
    c.json(await service.updateLicenseOrder(serviceContext(c), { id: c.req.valid('param').id, body: c.req.valid('json') }), 200),
  );

  app.openapi(routes.deleteLicenseOrderRoute, async (c) => {
    await service.deleteLicenseOrder(serviceContext(c), { id: c.req.valid('param').id });

    return c.body(null, 204);
  });

  app.openapi(routes.getLicenseDashboardRoute, async (c) =>
    c.json(await reads.getLicenseDashboard(serviceContext(c), { customerId: c.req.valid('param').customerId }), 200),
  );
}
