import { defineModule, plug } from '@/server/modules/module';
import { usageCounters } from '@/server/modules/resource-limits';
import { teamResources } from '@/server/modules/teams';
import { createOutboundClient } from '@/server/outbound';
import { createBlobStore, type BlobStore } from '@/server/storage';
import { v4 as uuidv4 } from 'uuid';
import { createWebhookExecutor } from './webhook-executor';
import { registerWebhookRoutes } from './webhooks.handlers';
import { countActionsOf, insertAction, insertApiKey } from './webhooks.queries';
import { webhookActions, webhookApiKeys, webhookExecutions } from './webhooks.table';

export const webhooksModule = defineModule({
  name: 'webhooks',
  routes: registerWebhookRoutes,
  tables: [webhookApiKeys, webhookActions, webhookExecutions],
  plugs: [
    plug(
      teamResources,
      { type: 'webhookEventAction', table: webhookActions, idColumn: webhookActions.id, customerIdColumn: webhookActions.customerId },
      { type: 'webhookApiKey', table: webhookApiKeys, idColumn: webhookApiKeys.id, customerIdColumn: webhookApiKeys.customerId },
    ),
    plug(usageCounters, { resource: 'WEBHOOK', count: countActionsOf }),
  ],
  jobs: ({ db, config, log, stopping }) => {
    let store: Promise<BlobStore> | undefined;
    const executor = createWebhookExecutor({
      db,
      config,
      log,
      blobStore: () => (store ??= createBlobStore(config)),
      outbound: createOutboundClient({ allowPrivateNetwork: config.allowPrivateNetworkFetch }),
    });
    stopping?.addEventListener('abort', () => executor.stop(), { once: true });

    // Accepted triggers wake this instance's executor at once; the tick (one instance per time) takes what no wake
    // reached: triggers accepted by an instance without jobs, and executions whose instance died mid-run.
    return [{ name: 'webhooks.execute-due', cron: '*/5 * * * * *', run: async () => void (await executor.drain()) }];
  },
  sweep: {
    webhookEventAction: async (db, customerId) =>
      String(
        (
          await insertAction(db, {
            customerId,
            name: 'sweep',
            eventId: `sweep-${uuidv4()}`,
            action: 'REFRESH_DATASOURCE_ALL',
          })
        ).id,
      ),
    webhookApiKey: async (db, customerId) =>
      (await insertApiKey(db, { id: uuidv4(), customerId, name: 'sweep', scopes: ['WEBHOOK_CALL'] })).id,
  },
});
