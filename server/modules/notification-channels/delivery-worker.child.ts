/*
 * A delivery worker in a process of its own, for the kill -9 test (delivery-worker-kill.api.test.ts): it drains the
 * deliveries due on DATABASE_URL (PostgreSQL), 16 at a time as in production, until it is killed. AUTH_SECRET must be
 * the test server's (it opens the channels' sealed secrets, as every instance of a deployment does). Not run by the product.
 */
import { parseConfig } from '../../config';
import { openDatabase } from '../../db/client';
import { createLogger } from '../../logger';
import { createOutboundClient } from '../../outbound';
import { createDeliveryWorker } from './delivery-worker';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL names the database whose deliveries this worker sends');
const handle = await openDatabase({ kind: 'pg', url });
const worker = createDeliveryWorker({
  db: handle.db,
  config: parseConfig(process.env),
  log: createLogger('warn'),
  outbound: createOutboundClient({ allowPrivateNetwork: true }),
  canBeWoken: false,
});
process.stdout.write('draining\n');
for (;;) {
  await worker.drain();
  await new Promise((resolve) => setTimeout(resolve, 20));
}
