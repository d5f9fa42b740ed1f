import { OutboundError, type OutboundClient } from '@/server/outbound';

/*
 * The HTTP part of an attempt (WEBHOOK and SMS), outside any transaction, through the guarded client (spec 5 §1):
 * no redirect followed (a 3xx is a failure), success is a 2xx within the delivery timeout (15 s). Only the status
 * matters: the answer's body is never read (a receiver cannot make us download anything).
 */

/** Spec 5 §5: success is a 2xx within 15 s. */
export const DELIVERY_TIMEOUT_MS = 15_000;
/** The guarded client's connect timeout (spec 5 §1), within the delivery's. */
const CONNECT_TIMEOUT_MS = 5_000;

export type HttpOutcome = { succeeded: boolean; statusCode?: number; latencyMs: number; error?: string };

/** POSTs `body` (JSON) to `url`; never throws. */
export async function postJson(
  outbound: OutboundClient,
  input: { url: string; body: string; headers?: Record<string, string>; timeoutMs: number },
): Promise<HttpOutcome> {
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  const request = outbound.stream(
    { url: input.url, method: 'POST', headers: { 'content-type': 'application/json', ...input.headers }, body: input.body },
    {
      maxBytes: 64 * 1024,
      maxRedirects: 0,
      connectTimeoutMs: Math.min(CONNECT_TIMEOUT_MS, input.timeoutMs),
      headersTimeoutMs: input.timeoutMs,
      bodyTimeoutMs: input.timeoutMs,
    },
  );
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), input.timeoutMs);
  });
  try {
    const answer = await Promise.race([request, timedOut]);
    if (answer === 'timeout') {
      // The request goes on until the client's own timers end it; its answer, if any, is dropped unread.
      request.then(
        (late) => late.body.destroy(),
        () => undefined,
      );

      return { succeeded: false, latencyMs: latency(), error: `No answer within ${input.timeoutMs / 1000} s` };
    }
    answer.body.destroy();
    const statusCode = answer.status;
    const succeeded = statusCode >= 200 && statusCode < 300;

    return { succeeded, statusCode, latencyMs: latency(), error: succeeded ? undefined : statusError(statusCode) };
  } catch (err) {
    const error = err instanceof OutboundError ? err.message : 'The request failed';

    return { succeeded: false, latencyMs: latency(), error };
  } finally {
    clearTimeout(timer);
  }
}

function statusError(status: number): string {
  if (status >= 300 && status < 400) return `The receiver answered ${status} (a redirect, which is not followed)`;
  if (status === 410) return 'The receiver answered 410 Gone: the channel is disabled';

  return `The receiver answered ${status}`;
}
