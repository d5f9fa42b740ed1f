'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, as, ok, tenantQuery } from '@/lib/api/client';
import { and, CONTAINS_IGNORING_CASE, or, term, toSearch, type Expr } from '@/lib/api/query-language';
import { defineResource, type ListRequest } from '@/lib/api/resource';
import { useTeamReads } from '@/lib/api/team-reads';
import type { Page, Schemas } from '@/lib/api/types';
import type { Campaign, CampaignAiring } from '@/server/modules/campaigns/campaigns.schemas';
import type { Device } from '@/server/modules/devices/devices.schemas';
import type { MessageGroup } from '@/server/modules/message-groups/message-groups.schemas';

export type { Campaign, CampaignAiring, CampaignType } from '@/server/modules/campaigns/campaigns.schemas';

export type ChannelListParams = ListRequest & { text: string };

const LIST_FIELDS = 'name,type,enabled,locked,validFrom,validTo,deviceSelectionMode,weight,saturation,affectedScreenCount';

/** Channels: the campaigns of level WIDGET (schedules are the TOP ones). */
export const channelResource = defineResource({
  item: as<Campaign>(),
  key: 'campaigns',
  list: '/api/v2/campaign',
  listQuery: (params: ChannelListParams) => ({
    search: toSearch(
      and(term('level', '=', 'WIDGET'), params.text.trim() ? term('name', CONTAINS_IGNORING_CASE, params.text.trim()) : null),
    ),
    select: LIST_FIELDS,
    includeReadOnlyInfo: true,
  }),
  detail: '/api/v2/campaign/{id}',
  teamCapable: true,
  // What a screen plays (its timeline and explain) follows its channels.
  invalidates: [['devices']],
});

export const useChannels = channelResource.useList;

/** When each of the listed channels next plays (GET /api/v2/campaign/airing, at most 50 ids). */
export function useChannelAirings(ids: readonly number[]) {
  const customerId = channelResource.useScope();
  const key = ids.slice(0, 50).join(',');

  return useQuery({
    queryKey: [...channelResource.keys.lists(), 'airing', { customerId, key }] as const,
    queryFn: ({ signal }) =>
      ok(
        api.GET('/api/v2/campaign/airing', { params: { query: { campaignIds: key, ...tenantQuery(customerId) } }, signal }),
        as<CampaignAiring[]>(),
      ),
    enabled: key !== '',
    // "Now" moves: an airing that started or ended is read again.
    refetchInterval: 60_000,
  });
}

/**
 * A channel's create or update body as the editor's draft builds it, field by field (channel-draft.ts; update bodies
 * also carry `reset*` flags and `removeIds`). The editor checks it with the API's own body schema before it is sent
 * (`useDraftEditor`); that check cannot narrow the record's type (the schemas take `unknown`: they drop null
 * attributes first), hence the casts below.
 */
export type ChannelBody = Record<string, unknown>;

export function useCreateChannel() {
  return channelResource.useMutation((body: ChannelBody, { customerId }) =>
    // Cast: the draft's body is a record checked by the server's schema at run time (see ChannelBody).
    ok(api.POST('/api/campaign', { params: { query: tenantQuery(customerId) }, body: body as Schemas['CampaignCreate'] }), as<Campaign>()),
  );
}

export function useUpdateChannel() {
  // A campaign is changed in its own tenant: the operation takes no tenant selector.
  return channelResource.useMutation(({ id, body }: { id: number; body: ChannelBody }) =>
    // Cast: the draft's body is a record checked by the server's schema at run time (see ChannelBody).
    ok(api.PUT('/api/campaign/{id}', { params: { path: { id } }, body: body as Schemas['CampaignUpdate'] }), as<Campaign>()),
  );
}

/** DELETE /api/campaign/{id}: a channel or a schedule (both are campaigns), in its own tenant (no tenant selector). */
export function deleteCampaign(id: number) {
  return ok(api.DELETE('/api/campaign/{id}', { params: { path: { id } } }));
}

export function useDeleteChannel() {
  return channelResource.useMutation((id: number) => deleteCampaign(id), { deletes: true });
}

/** The tenant's message groups a channel of type MESSAGE_GROUP can play, by name (at most 200). */
export function useMessageGroupChoices(enabled: boolean) {
  const customerId = channelResource.useScope();

  return useQuery({
    queryKey: ['messageGroups', 'list', 'choices', { customerId }] as const,
    queryFn: ({ signal }) =>
      ok(
        api.GET('/api/messageGroup', { params: { query: { page: 0, size: 200, sort: 'name,asc', ...tenantQuery(customerId) } }, signal }),
        as<Page<MessageGroup>>(),
      ),
    enabled,
  });
}

/** Unsaved device targeting, as the editor holds it. */
export type TargetingDraft = {
  mode: 'DYNAMIC' | 'STATIC' | 'QUICK_FILTER';
  folderIds: readonly string[];
  tags: readonly string[];
  tagOperator: 'AND' | 'OR';
  deviceIds: readonly string[];
  /** DYNAMIC: only screens of one of these teams (none: no team limit). */
  teamIds?: readonly string[];
};

/**
 * The device-list search that matches the screens of a DYNAMIC targeting (a folder or below it, the tag
 * condition), so the editor counts them live with the screens list's own count. Null: no screen.
 */
function targetingSearch(draft: TargetingDraft): Expr | null {
  if (draft.folderIds.length === 0) return null;
  const folders = or(...draft.folderIds.map((id) => term('deviceGroupPath', ':', id)));
  const tags =
    draft.tags.length === 0
      ? null
      : draft.tagOperator === 'OR'
        ? term('tags', '∈', draft.tags)
        : and(...draft.tags.map((tag) => term('tags', '∈', [tag])));

  return and(folders, tags);
}

/**
 * How many screens an unsaved targeting reaches, counted live by the screens list itself (`/api/v2/device`,
 * one row, `totalElements`): DYNAMIC by folder and tag search, and with teams by `selectTeamIds` (the screens
 * assigned to one of them, as targeting reads teams; the team-less ones are then left out); QUICK_FILTER by
 * the filter; STATIC is the number picked. Null while unknown.
 */
export function useTargetCount(draft: TargetingDraft & { quickFilterId: string }): { count: number | null; isFetching: boolean } {
  const customerId = channelResource.useScope();
  const teamReads = useTeamReads();
  const search = draft.mode === 'DYNAMIC' ? toSearch(targetingSearch(draft)) : undefined;
  const teams = [...(draft.teamIds ?? [])].sort();
  const query = {
    page: 0,
    size: 1,
    select: 'id',
    ...(draft.mode === 'QUICK_FILTER' ? { quickFilterId: draft.quickFilterId } : { search }),
    ...(draft.mode === 'DYNAMIC' && teams.length > 0 ? { selectTeamIds: teams.join(',') } : teamReads.params),
  };
  const runs = (draft.mode === 'DYNAMIC' && search !== undefined) || (draft.mode === 'QUICK_FILTER' && draft.quickFilterId !== '');
  const result = useQuery<number>({
    queryKey: ['devices', 'list', 'targetCount', { customerId, ...query }] as const,
    queryFn: async ({ signal }) =>
      (
        await ok(
          api.GET('/api/v2/device', { params: { query: { ...query, ...tenantQuery(customerId) } }, signal }),
          as<Page<Pick<Device, 'id'>>>(),
        )
      ).totalElements,
    enabled: runs && teamReads.ready,
    placeholderData: keepPreviousData,
  });
  if (draft.mode === 'STATIC') return { count: draft.deviceIds.length, isFetching: false };
  if (!runs) return { count: 0, isFetching: false };

  return { count: result.data ?? null, isFetching: result.isFetching };
}
