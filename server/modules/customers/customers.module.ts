import { networkDirectories } from '@/server/context/tenant-scope';
import { defineModule, plug } from '@/server/modules/module';
import { customerExists, isNetworkMember, networkMembersSql } from './customers.queries';
import { registerCustomerRoutes } from './customers.handlers';
import { customers } from './customers.table';

export const customersModule = defineModule({
  name: 'customers',
  routes: registerCustomerRoutes,
  tables: [customers],
  plugs: [plug(networkDirectories, { exists: customerExists, isMember: isNetworkMember, membersSql: networkMembersSql })],
  // A customer is its own tenant: the sweep's "other tenant" is the resource.
  sweep: { customer: async (_db, customerId) => String(customerId) },
});
