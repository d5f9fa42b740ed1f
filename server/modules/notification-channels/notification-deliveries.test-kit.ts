import { createLogger } from '@/server/logger';
import { createOutboundClient } from '@/server/outbound';
import { startServer, type TestServer } from '@/server/outbound/outbound.test-kit';
import type { TestContext } from '@/server/test/harness';
import { createDeliveryWorker, type DeliveryWorker } from './delivery-worker';

/** A worker on the test's database that only `drain(now)` runs (the tests drive its clock); 127.0.0.1 allowed. */
export function testDeliveryWorker(t: TestContext, options: { timeoutMs?: number } = {}): DeliveryWorker {
  return createDeliveryWorker({
    db: t.db,
    config: t.config,
    log: createLogger('silent'),
    outbound: createOutboundClient({ allowPrivateNetwork: true }),
    timeoutMs: options.timeoutMs,
    canBeWoken: false,
  });
}

/**
 * A receiver on 127.0.0.1 answering each request with the next of `answers` (the last one repeats): a status, a
 * status with a Location (a redirect), or `'hang'` (no answer until the server closes).
 */
export async function startReceiver(answers: (number | 'hang' | { status: number; location: string })[] = [200]): Promise<TestServer> {
  let i = 0;

  return startServer((_request, response) => {
    const answer = answers[Math.min(i++, answers.length - 1)]!;
    if (answer === 'hang') return;
    if (typeof answer === 'number') response.writeHead(answer).end('ok');
    else response.writeHead(answer.status, { location: answer.location }).end();
  });
}
