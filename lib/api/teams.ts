'use client';

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { defineResource, type ListRequest } from '@/lib/api/resource';
import { api, ApiError, as, ok, tenantQuery } from '@/lib/api/client';
import { useCurrentUser } from '@/lib/auth/current-user';
import { and, CONTAINS_IGNORING_CASE, or, term, toSearch } from '@/lib/api/query-language';
import type { Page, Schemas, User } from '@/lib/api/types';
import { toUpdateBody } from '@/lib/api/update-body';
import { userKeys } from '@/lib/api/users';
import { hasRole, roles } from '@/server/context/roles';

/** A team as the API answers it. */
export type Team = Schemas['Team'];

export type TeamAssignment = Schemas['TeamAssignmentItem'];

/** Spec 1 `teamAccessList`: the teams of one resource (the service adds each team's name). */
type TeamAccessList = Schemas['TeamAccessList'];

/** The kinds plugged into the team mechanism today besides users (the server modules' manifests). */
export const TEAM_RESOURCE_KINDS = [
  { type: 'deviceGroup', label: 'Device folders', countKey: 'teamDeviceGroupNumber' },
  { type: 'fileFolder', label: 'File folders', countKey: 'teamFileFolderNumber' },
  { type: 'contentGroup', label: 'Content folders', countKey: 'teamContentGroupNumber' },
] as const;
/** Media the console assigns to teams from both sides: the team page and the media library. */
export type MediaTeamKind = 'fileFolder' | 'file';
export type TeamResourceKind = 'user' | 'file' | (typeof TEAM_RESOURCE_KINDS)[number]['type'];

type TeamListParams = ListRequest & { text: string };

/** Teams of the selected tenant, with their member and folder counts. */
const teamResource = defineResource({
  key: 'teams',
  list: '/api/team',
  listQuery: (params: TeamListParams) => ({
    search: params.text.trim() ? toSearch(term('name', CONTAINS_IGNORING_CASE, params.text.trim())) : undefined,
    includeTeamUserNumber: true,
    includeTeamResourceNumber: true,
  }),
  // The TEAM usage in the resource limits.
  invalidates: [['settings', 'limits']],
});

export const teamKeys = {
  ...teamResource.keys,
  assignments: (id: string, type: TeamResourceKind) => [...teamResource.keys.all, 'assignments', { id, type }] as const,
  members: (id: string) => [...teamResource.keys.all, 'members', { id }] as const,
  ofResource: (customerId: number | undefined, type: MediaTeamKind, id: string) =>
    [...teamResource.keys.all, 'of-resource', { customerId, type, id }] as const,
};

export const useTeams = teamResource.useList;

/** One team, found through the list's search (there is no single-team read). */
export function useTeam(id: string, customerId: number | undefined) {
  return useQuery({
    queryKey: teamKeys.detail(customerId, id),
    queryFn: async ({ signal }) => {
      const page = await ok(
        api.GET('/api/team', {
          params: {
            query: {
              size: 1,
              search: toSearch(term('id', '=', id)),
              includeTeamUserNumber: true,
              includeTeamResourceNumber: true,
              ...tenantQuery(customerId),
            },
          },
          signal,
        }),
      );

      return page.content[0] ?? null;
    },
    enabled: /^[0-9a-f-]{36}$/i.test(id),
  });
}

export function useTeamAssignments(teamId: string, type: TeamResourceKind, customerId: number | undefined, enabled = true) {
  return useQuery({
    queryKey: teamKeys.assignments(teamId, type),
    queryFn: ({ signal }) =>
      ok(
        api.GET('/api/team/{segment}', {
          params: { path: { segment: `${type}Assignments` }, query: { teamId, ...tenantQuery(customerId) } },
          signal,
        }),
      ),
    enabled,
  });
}

/**
 * The kinds whose list answers names, for showing assigned resources by name (the assignment list carries
 * ids only), and their list operation. Kinds without a list yet show their ids.
 */
const NAMED_RESOURCE_LISTS = {
  fileFolder: (init: NamedListInit) => ok(api.GET('/api/v2/fileFolder', init)),
  file: (init: NamedListInit) => ok(api.GET('/api/v2/file', init)),
} satisfies Partial<Record<TeamResourceKind, unknown>>;
type NamedListInit = { params: { query: { size: number; select: string; search?: string; customerId?: number } }; signal: AbortSignal };

/** Names of the resources of `type` assigned to the team, by id; at most 1 000. */
export function useTeamResourceNames(teamId: string, type: TeamResourceKind, customerId: number | undefined, enabled: boolean) {
  const read = type in NAMED_RESOURCE_LISTS ? NAMED_RESOURCE_LISTS[type as keyof typeof NAMED_RESOURCE_LISTS] : undefined;

  return useQuery({
    queryKey: [...teamKeys.assignments(teamId, type), 'names'] as const,
    queryFn: async ({ signal }) => {
      const page = await read!({
        params: {
          query: {
            size: 1000,
            select: 'id,name',
            search: toSearch(term('teamAssignments.team.id', '=', teamId)),
            ...tenantQuery(customerId),
          },
        },
        signal,
      });

      return new Map(page.content.map((row) => [row.id, row.name ?? '']));
    },
    enabled: enabled && read !== undefined,
  });
}

/** The members' names and roles (the assignment list carries ids only); at most 1 000. */
export function useTeamMemberUsers(teamId: string, customerId: number | undefined) {
  return useQuery({
    queryKey: teamKeys.members(teamId),
    queryFn: ({ signal }) =>
      ok(
        api.GET('/api/v2/user', {
          params: {
            query: {
              size: 1000,
              sort: 'name,asc',
              select: 'name,email,role,restricted',
              search: toSearch(term('teamAssignments.team.id', '=', teamId)),
              ...tenantQuery(customerId),
            },
          },
          signal,
        }),
        as<Page<User>>(),
      ),
  });
}

/** Roles that may join a team: all but OWNER and ADMIN (the enum field takes `∈`, not `∉`). */
const TEAM_ROLES = roles.filter((r) => r !== 'OWNER' && r !== 'ADMIN');

/** Users of the tenant who may join a team (not OWNER or ADMIN) and match the text; 50 at a time. */
export function useTeamCandidates(text: string, customerId: number | undefined, enabled: boolean) {
  return useQuery({
    queryKey: [...userKeys.lists(), 'team-candidates', { customerId, text }] as const,
    queryFn: ({ signal }) => {
      const value = text.trim();
      const search = toSearch(
        and(
          term('role', '∈', TEAM_ROLES),
          value ? or(term('name', CONTAINS_IGNORING_CASE, value), term('email', CONTAINS_IGNORING_CASE, value)) : null,
        ),
      );

      return ok(
        api.GET('/api/v2/user', {
          params: { query: { size: 50, sort: 'name,asc', select: 'name,email,role,restricted', search, ...tenantQuery(customerId) } },
          signal,
        }),
        as<Page<User>>(),
      );
    },
    placeholderData: keepPreviousData,
    enabled,
  });
}

export type TeamInput = Schemas['TeamBody'];

export function useCreateTeam() {
  return teamResource.useMutation((input: TeamInput, { customerId }) =>
    ok(api.POST('/api/team', { params: { query: tenantQuery(customerId) }, body: input })),
  );
}

export function useUpdateTeam() {
  return teamResource.useMutation(({ id, input }: { id: string; input: TeamInput }, { customerId }) =>
    ok(api.PUT('/api/team', { params: { query: { teamId: id, ...tenantQuery(customerId) } }, body: toUpdateBody(input) })),
  );
}

export function useDeleteTeam() {
  return teamResource.useMutation((id: string, { customerId }) =>
    ok(api.DELETE('/api/team/{segment}', { params: { path: { segment: id }, query: tenantQuery(customerId) } })),
  );
}

export type TeamAssignmentChange = Schemas['TeamResourcesUpdate'];

/** Adds (or re-flags: adding again replaces `readOnly`) and removes resources of one kind. */
export function useUpdateTeamAssignments(teamId: string, type: TeamResourceKind, customerId: number | undefined) {
  const queryClient = useQueryClient();

  return useMutation({
    mutationFn: (change: TeamAssignmentChange) =>
      ok(
        api.PUT('/api/team/{segment}', {
          params: {
            path: { segment: `update${type.charAt(0).toUpperCase()}${type.slice(1)}Assignments` },
            query: { teamId, ...tenantQuery(customerId) },
          },
          body: change,
        }),
      ),
    onSuccess: (rows) => {
      queryClient.setQueryData(teamKeys.assignments(teamId, type), rows);

      return Promise.all([
        queryClient.invalidateQueries({ queryKey: teamKeys.all }),
        queryClient.invalidateQueries({ queryKey: userKeys.all }),
      ]);
    },
  });
}

/** The teams one folder or file is assigned to. */
export function useResourceTeams(
  type: MediaTeamKind,
  resourceId: string,
  customerId: number | undefined,
  { enabled = true }: { enabled?: boolean } = {},
) {
  return useQuery({
    queryKey: teamKeys.ofResource(customerId, type, resourceId),
    queryFn: ({ signal }) =>
      ok(
        api.GET('/api/team/{resourceType}/{resourceId}/assignments', {
          params: { path: { resourceType: type, resourceId }, query: tenantQuery(customerId) },
          signal,
        }),
      ),
    enabled,
  });
}

export type TeamModification = Schemas['TeamModification'];

/** The operation changing the teams of one folder or file. */
const RESOURCE_TEAM_UPDATES: Record<
  MediaTeamKind,
  (id: string, change: TeamModification, customerId: number | undefined) => Promise<TeamAccessList>
> = {
  fileFolder: (fileFolderId, body, customerId) =>
    ok(api.POST('/api/fileFolder/updateTeamAssignments', { params: { query: { fileFolderId, ...tenantQuery(customerId) } }, body })),
  file: (fileId, body, customerId) =>
    ok(api.POST('/api/file/updateTeamAssignments', { params: { query: { fileId, ...tenantQuery(customerId) } }, body })),
};

/** Assigns one folder or file to teams (again with another `readOnly` to change the flag) and removes it from others. */
export function useUpdateResourceTeams(type: MediaTeamKind, resourceId: string, customerId: number | undefined) {
  const queryClient = useQueryClient();

  return useMutation({
    mutationFn: (change: TeamModification) => RESOURCE_TEAM_UPDATES[type](resourceId, change, customerId),
    onSuccess: (list) => {
      queryClient.setQueryData(teamKeys.ofResource(customerId, type, resourceId), list);

      return queryClient.invalidateQueries({ queryKey: teamKeys.all });
    },
  });
}

/**
 * The signed-in user's own teams (GET /api/team/user/{id}/assignments). A user below OWNER who belongs to a
 * team is "team-scoped": what it creates must name at least one of its teams (spec 2: "a non-OWNER team user
 * must select at least one team in `teamAccessList`"), so forms pick these by default. OWNER and ADMIN never
 * are; a user its own record is hidden from (404) is not either.
 */
export function useOwnTeams(): { ready: boolean; scoped: boolean; teams: Array<{ id: string; name: string }> } {
  const me = useCurrentUser();
  const canBeMember = !hasRole(me.role, 'OWNER') && me.customerId !== null;
  const own = useQuery({
    queryKey: [...teamResource.keys.all, 'own', { userId: me.id }] as const,
    queryFn: ({ signal }) =>
      ok(
        api.GET('/api/team/{resourceType}/{resourceId}/assignments', {
          params: { path: { resourceType: 'user', resourceId: me.id } },
          signal,
        }),
      ).catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 404) return { teams: [] } satisfies TeamAccessList;
        throw error;
      }),
    enabled: canBeMember,
    staleTime: 5 * 60_000,
  });
  if (!canBeMember) return { ready: true, scoped: false, teams: [] };
  const teams = (own.data?.teams ?? []).map((t) => ({ id: t.id, name: t.name ?? t.id }));

  // Should the read fail, forms still open (the API then names the missing team).
  return { ready: own.isSuccess || own.isError, scoped: teams.length > 0, teams };
}
