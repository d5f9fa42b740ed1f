import { defineModule } from '@/server/modules/module';
import { registerAuditLogRoutes } from './audit-log.handlers';
import { auditLog } from './audit-log.table';

export const auditLogModule = defineModule({ name: 'audit-log', routes: registerAuditLogRoutes, tables: [auditLog] });
