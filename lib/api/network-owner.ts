'use client';

import { useQuery } from '@tanstack/react-query';
import { api, ok } from '@/lib/api/client';
import { useCurrentUser } from '@/lib/auth/current-user';

/*
 * Whether the signed-in user's own customer is a network owner. Apart from lib/api/customers because the
 * tenant context needs it and every resource of the console needs the tenant context.
 */

/** The root of the customers' query keys: a change of any customer refreshes this answer too. */
export const CUSTOMERS_KEY = 'customers';

export const ownCustomerKey = (id: number | null) => [CUSTOMERS_KEY, 'own', id] as const;

/** Whether the signed-in user's own customer is a network owner (an OWNER of one manages its customers). */
export function useIsNetworkOwner(): boolean {
  const user = useCurrentUser();
  const enabled = user.role === 'OWNER' && user.customerId !== null;
  const query = useQuery({
    queryKey: ownCustomerKey(user.customerId),
    queryFn: ({ signal }) =>
      ok(api.GET('/api/customer/{id}', { params: { path: { id: user.customerId! }, query: { select: 'subreseller' } }, signal })),
    enabled,
    staleTime: 5 * 60_000,
  });

  return enabled && Boolean(query.data?.subreseller);
}
