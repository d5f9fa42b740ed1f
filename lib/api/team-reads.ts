'use client';

import { useQuery } from '@tanstack/react-query';
import { api, ok } from '@/lib/api/client';
import { useCurrentUser } from '@/lib/auth/current-user';
import { hasRole } from '@/server/context/roles';

/** The team read parameters (spec 1) the console adds to lists of team-capable resources. */
export type TeamReadParams = { includeResourcesWithoutTeam?: true };

export const teamReadKeys = {
  all: ['teamReads'] as const,
  setting: (customerId: number | null) => [...teamReadKeys.all, { customerId }] as const,
};

/**
 * What lists of team-capable resources (files, folders, quick filters, users) send so they show what the
 * user may use. A team member's lists hold only its teams' resources unless `includeResourcesWithoutTeam`
 * is passed; the console passes it when the user's own tenant lets team members use team-less resources
 * (`accessResourcesWithoutTeam`, readable by every role on the own customer). OWNER and ADMIN see
 * everything anyway. `ready` is false until the setting is known, so lists wait instead of showing the
 * narrower list first.
 */
export function useTeamReads(): { ready: boolean; params: TeamReadParams } {
  const me = useCurrentUser();
  const needsSetting = !hasRole(me.role, 'OWNER') && me.customerId !== null;
  const setting = useQuery({
    queryKey: teamReadKeys.setting(me.customerId),
    queryFn: ({ signal }) =>
      ok(
        api.GET('/api/customer/{id}', {
          params: { path: { id: me.customerId! }, query: { select: 'accessResourcesWithoutTeam' } },
          signal,
        }),
      ).then(
        // Absent means the spec's default, true.
        (customer) => customer.accessResourcesWithoutTeam ?? true,
      ),
    enabled: needsSetting,
    staleTime: 5 * 60_000,
  });
  if (!needsSetting) return { ready: true, params: {} };
  // Should the setting not load, lists still load (narrower) rather than never.
  if (setting.isError) return { ready: true, params: {} };

  return { ready: setting.isSuccess, params: setting.data ? { includeResourcesWithoutTeam: true } : {} };
}

/** The create parameter `teamIds` (spec 1 `<teamId>:<readOnly>` pairs) for teams a new resource joins read-write; none chosen, none sent. */
export function writableTeamsQuery(teamIds: readonly string[]): { teamIds?: string } {
  return teamIds.length > 0 ? { teamIds: teamIds.map((id) => `${id}:false`).join(',') } : {};
}
