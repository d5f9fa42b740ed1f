import { defineModule } from '@/server/modules/module';
import { registerSystemRoutes } from './system.handlers';

export const systemModule = defineModule({ name: 'system', routes: registerSystemRoutes });
