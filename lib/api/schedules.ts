'use client';

import { keepPreviousData, useQueries } from '@tanstack/react-query';
import { api, as, ok, tenantQuery } from '@/lib/api/client';
import { deleteCampaign } from '@/lib/api/campaigns';
import { and, NULL, or, term, toSearch } from '@/lib/api/query-language';
import { defineResource, type ListRequest } from '@/lib/api/resource';
import type { Campaign } from '@/server/modules/campaigns/campaigns.schemas';
import type { FolderSchedule } from '@/server/modules/display/display.schemas';
import type { ScheduleInterval, ScheduleIntervals } from '@/server/playback/schedule-rules.schemas';

/** A schedule: a campaign with level TOP (spec 2 "Campaign"), as the version 2 list answers it. */
export type Schedule = Campaign & { affectedDateRanges?: ScheduleIntervals };

export type ScheduleListParams = ListRequest & {
  /** The folder and its ancestors (a schedule of an ancestor plays in the folder too). */
  folderIds: string[];
  /** The first and last day shown, as epoch ms of 00:00 UTC (the list's encoding of validFrom/validTo). */
  fromDay: number;
  toDay: number;
};

const FIELDS =
  'name,enabled,locked,weight,validFrom,validTo,affectedDateRanges,affectedDays,affectedHours,contentShuffleMode,contentAssignments,deviceGroupAssignments,teamAccessList';

/**
 * The TOP campaigns assigned to any of the folders whose validity overlaps the days shown: the server filters
 * (the intervals themselves are JSON and are laid out by lib/schedule/calendar.ts from this page).
 */
export const scheduleResource = defineResource({
  item: as<Schedule>(),
  key: 'schedules',
  list: '/api/v2/campaign',
  listQuery: (params: ScheduleListParams) => ({
    search: toSearch(
      and(
        term('level', '=', 'TOP'),
        term('campaignDeviceGroupAssignments.deviceGroupId', '∈', params.folderIds),
        or(term('validFrom', '=', NULL), term('validFrom', '≤', params.toDay)),
        or(term('validTo', '=', NULL), term('validTo', '≥', params.fromDay)),
      ),
    ),
    select: FIELDS,
    includeReadOnlyInfo: true,
  }),
  teamCapable: true,
});

export const useSchedules = scheduleResource.useList;

/** What the schedule dialog saves. */
export type ScheduleInput = { name: string; contentId: string; enabled: boolean; interval: ScheduleInterval; teamIds: string[] };

/** POST /api/campaign: a schedule of one content for one folder, playing in one interval. */
export function useCreateSchedule() {
  return scheduleResource.useMutation((input: ScheduleInput & { folderId: string }, { customerId }) =>
    ok(
      api.POST('/api/campaign', {
        params: { query: tenantQuery(customerId) },
        body: {
          name: input.name,
          level: 'TOP',
          type: 'CONTENT',
          version: '2.0',
          enabled: input.enabled,
          // Required for CONTENT but not used by a schedule (spec 4 §4: it shows its first content).
          contentShuffleMode: 'SERIAL',
          contentAssignment: { assignments: [{ contentId: input.contentId, weight: 0 }] },
          deviceGroupAssignment: { assignments: [{ deviceGroupId: input.folderId }] },
          affectedDateRanges: { intervals: [input.interval] },
          // Who sees and changes it; a team-scoped user must name one of its teams (spec 2).
          teamAccessList: { teams: input.teamIds.map((id) => ({ id })) },
        },
      }),
      as<Schedule>(),
    ),
  );
}

export type ScheduleUpdate = {
  schedule: Schedule;
  name?: string;
  enabled?: boolean;
  /** The new content (replacing the ones assigned). */
  contentId?: string;
  /** The whole interval object: the moved or edited interval and the others as they were. */
  affectedDateRanges?: ScheduleIntervals;
  /** The schedule's teams, when changed. */
  teamIds?: string[];
};

/** PUT /api/campaign/{id}: assignment objects are additive, so a new content removes the old ones. */
export function useUpdateSchedule() {
  // A campaign is changed in its own tenant: the operation takes no tenant selector.
  return scheduleResource.useMutation(({ schedule, contentId, teamIds, ...fields }: ScheduleUpdate) => {
    const old = (schedule.contentAssignments ?? []).map((c) => String(c.id)).filter((id) => id !== contentId);
    const contentAssignment = contentId ? { assignments: [{ contentId, weight: 0 }], removeIds: old } : undefined;
    const teamAccessList = teamIds ? { teams: teamIds.map((id) => ({ id })) } : undefined;

    return ok(
      api.PUT('/api/campaign/{id}', { params: { path: { id: schedule.id } }, body: { ...fields, contentAssignment, teamAccessList } }),
      as<Schedule>(),
    );
  });
}

export function useDeleteSchedule() {
  return scheduleResource.useMutation((id: number) => deleteCampaign(id), { deletes: true });
}

/** The intervals with the one at `index` replaced (the others kept as they were). */
export function withInterval(ranges: ScheduleIntervals | undefined, index: number, interval: ScheduleInterval): ScheduleIntervals {
  const intervals = [...(ranges?.intervals ?? [])];
  if (index < 0) intervals.push(interval);
  else intervals[index] = interval;

  return { ...ranges, intervals };
}

/**
 * GET /api/v2/deviceGroup/{id}/schedule over each window (each at most 7 days): what every screen of the folder
 * plays, as the screens themselves resolve it. Under the schedules' keys, so a schedule change refreshes it.
 */
export function useFolderSchedule(folderId: string, windows: readonly { from: number; to: number }[]) {
  const customerId = scheduleResource.useScope();

  return useQueries({
    queries: windows.map((window) => ({
      queryKey: [...scheduleResource.keys.all, 'folder', { customerId, folderId, ...window }] as const,
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        ok(
          api.GET('/api/v2/deviceGroup/{id}/schedule', {
            params: { path: { id: folderId }, query: { from: window.from, to: window.to, ...tenantQuery(customerId) } },
            signal,
          }),
          as<FolderSchedule>(),
        ),
      enabled: folderId !== '',
      placeholderData: keepPreviousData,
    })),
    combine: (results) => ({
      plans: results.flatMap((r) => r.data?.plans ?? []),
      screens: results[0]?.data?.screens,
      isPending: results.some((r) => r.isPending),
      isFetching: results.some((r) => r.isFetching),
      error: results.find((r) => r.isError)?.error ?? null,
      refetch: () => results.forEach((r) => void r.refetch()),
    }),
  });
}
