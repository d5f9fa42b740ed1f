import { networkDirectories } from '@/server/context/tenant-scope';
import { defineModule, plug } from '@/server/modules/module';
import { customerExists, isNetworkMember, networkMembersSql } from './customers.queries';
import { registerCustomerRoutes } from './customers.handlers';

export const customersModule = defineModule({
  name: 'customers',
  routes: registerCustomerRoutes,
  // The customer table stands below every module (server/tenant/customers.table.ts); this module owns its writes.
  plugs: [plug(networkDirectories, { exists: customerExists, isMember: isNetworkMember, membersSql: networkMembersSql })],
  // A customer is its own tenant: the sweep's "other tenant" is the resource.
  sweep: { customer: async (_db, customerId) => String(customerId) },
});
