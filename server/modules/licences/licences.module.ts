import { defineModule, plug } from '@/server/modules/module';
import { customerStatistics } from '@/server/tenant/customer-statistics';
import { registerInvoiceRoutes } from './license-invoices.handlers';
import { registerLicenceRoutes } from './licences.handlers';
import { insertOrder, totalLicensesSql } from './licences.queries';
import { licenseOrders, licensePackages } from './licences.table';

/**
 * Licence packages and orders (spec 3 "License order", spec 5 §6). Devices plug into `licenseAssignments`
 * (license-assignments.ts) so the order counts the devices holding its licences.
 */
export const licencesModule = defineModule({
  name: 'licences',
  routes: (app) => {
    registerLicenceRoutes(app);
    registerInvoiceRoutes(app);
  },
  tables: [licensePackages, licenseOrders],
  // Spec 3: `totalLicenses` is the sum of the customer's approved orders' licences.
  plugs: [plug(customerStatistics, { statistic: 'totalLicenses', sql: totalLicensesSql })],
  sweep: {
    licenseOrder: async (db, customerId) =>
      String((await insertOrder(db, { customerId, orderDate: new Date(), deviceLicenseCount: 1, licenseType: 'BASIC' })).id),
  },
});
