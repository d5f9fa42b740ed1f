import { defineModule } from '@/server/modules/module';
import { registerTagRoutes } from './tags.handlers';
import { tags } from './tags.table';

export const tagsModule = defineModule({ name: 'tags', routes: registerTagRoutes, tables: [tags] });
