import { defineModule } from '@/server/modules/module';
import { registerCustomerRoutes } from './customers.handlers';
import { customers } from './customers.table';

export const customersModule = defineModule({
  name: 'customers',
  routes: registerCustomerRoutes,
  tables: [customers],
  // A customer is its own tenant: the sweep's "other tenant" is the resource.
  sweep: { customer: async (_db, customerId) => String(customerId) },
});
