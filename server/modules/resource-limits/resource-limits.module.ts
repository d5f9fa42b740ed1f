import { defineModule } from '@/server/modules/module';
import { registerResourceLimitRoutes } from './resource-limits.handlers';
import { resourceLimitConfig } from './resource-limits.table';

export const resourceLimitsModule = defineModule({
  name: 'resource-limits',
  routes: registerResourceLimitRoutes,
  tables: [resourceLimitConfig],
});
