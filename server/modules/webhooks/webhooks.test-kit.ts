import { createLogger } from '@/server/logger';
import { createOutboundClient } from '@/server/outbound';
import type { TestContext } from '@/server/test/harness';
import { createWebhookExecutor, type WebhookExecutor } from './webhook-executor';

/** An executor on the test's database and storage (outbound calls to 127.0.0.1 allowed, as the tests' remotes live there). */
export function testExecutor(t: TestContext): WebhookExecutor {
  return createWebhookExecutor({
    db: t.db,
    config: t.config,
    log: createLogger('silent'),
    blobStore: async () => t.storage,
    outbound: createOutboundClient({ allowPrivateNetwork: true }),
  });
}
