import { createGuardedClient } from './client';
import type { OutboundClient, Resolver } from './types';

export { refusedAddressReason } from './addresses';
export { formatBytes, OutboundError, type OutboundFailure } from './outbound-error';
export type { OutboundClient, OutboundLimits, OutboundRequest, OutboundResponse, OutboundStream, Resolver } from './types';

/**
 * The one client for requests to addresses a tenant chose (spec 5 §1). `allowPrivateNetwork` comes from
 * ALLOW_PRIVATE_NETWORK_FETCH; `resolve` defaults to the system resolver (node:dns lookup, all addresses).
 */
export function createOutboundClient(options: { allowPrivateNetwork: boolean; resolve?: Resolver }): OutboundClient {
  // Only these two: the test-only seams of createGuardedClient stay unreachable from here.
  return createGuardedClient({ allowPrivateNetwork: options.allowPrivateNetwork, resolve: options.resolve });
}
