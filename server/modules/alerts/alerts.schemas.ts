import { z } from '@hono/zod-openapi';
import { intId } from '@/server/http/wire.schemas';

/* Wire shapes of alert records (spec 2 "Alert records"), with `closedAtDate` and `open` of ours (README). */

const isoDateTime = z.string().openapi({ format: 'date-time' });
const common = {
  id: intId,
  createdAtDate: isoDateTime.optional().openapi({ description: 'When the alert opened' }),
  closedAtDate: isoDateTime.optional().openapi({ description: 'When it closed; absent while open' }),
  open: z.boolean().optional(),
  alertRuleId: intId.optional(),
  customerId: intId.optional(),
};

export const AlertSchema = z.object(common).openapi('Alert');

export const DeviceAlertSchema = z
  .object({
    ...common,
    alertRuleName: z.string().optional(),
    deviceId: z.string().optional(),
    deviceName: z.string().optional(),
    deviceLastActivity: isoDateTime.optional(),
    deviceLastStatusChange: isoDateTime.optional(),
    deviceGroupId: z.string().optional(),
    deviceGroupPath: z.string().optional().openapi({ description: 'The folder ids from the root down, joined by `/`' }),
    folderPath: z.string().optional().openapi({ description: 'The folder names from the root down, joined by ` / `' }),
  })
  .openapi('DeviceAlert', { description: 'The device facts as they were when the alert opened' });

export const DatasourceAlertSchema = z
  .object({
    ...common,
    alertRuleName: z.string().optional(),
    datasourceId: z.string().optional(),
    datasourceName: z.string().optional(),
    datasourceErrorCounter: z.number().int().optional(),
    datasourceLastError: z.string().optional(),
  })
  .openapi('DatasourceAlert', { description: 'The datasource facts as they were when the alert opened' });

export const alertStates = ['OPEN', 'CLOSED'] as const;

export type Alert = z.infer<typeof AlertSchema>;
export type DeviceAlert = z.infer<typeof DeviceAlertSchema>;
export type DatasourceAlert = z.infer<typeof DatasourceAlertSchema>;
