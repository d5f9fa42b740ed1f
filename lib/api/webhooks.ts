'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, as, ok, tenantQuery } from '@/lib/api/client';
import { CONTAINS_IGNORING_CASE, or, term, toSearch } from '@/lib/api/query-language';
import { defineResource, type ListRequest } from '@/lib/api/resource';
import { useTeamReads, writableTeamsQuery } from '@/lib/api/team-reads';
import type { Page, Schemas } from '@/lib/api/types';
import type {
  ActionTarget,
  TriggerAnswer,
  WebhookAction,
  WebhookApiKey,
  WebhookExecution,
} from '@/server/modules/webhooks/webhooks.schemas';

export type { TriggerAnswer, WebhookAction, WebhookApiKey, WebhookExecution };

/** What the action form sends (spec 3 "Webhook actions and keys"): the create body; an update sends it whole. */
export type WebhookActionInput = Schemas['WebhookActionCreate'];
export type WebhookActionChange = Schemas['WebhookActionUpdate'];
export type WebhookApiKeyInput = { name: string; restricted: boolean; teamIds: string[] };

type SearchParams = ListRequest & { text: string };

/** Webhook actions of the selected tenant, found by name or event id; team read parameters included. */
const webhookActionResource = defineResource({
  item: as<WebhookAction>(),
  key: 'webhookActions',
  list: '/api/webhookEvent/actions',
  listQuery: (params: SearchParams) => {
    const text = params.text.trim();

    return {
      search: text ? toSearch(or(term('name', CONTAINS_IGNORING_CASE, text), term('eventId', CONTAINS_IGNORING_CASE, text))) : undefined,
      includeReadOnlyInfo: true,
    };
  },
  detail: '/api/webhookEvent/actions/{actionId}',
  teamCapable: true,
  // The WEBHOOK usage in the resource limits.
  invalidates: [['settings', 'limits']],
});

/** Webhook API keys of the selected tenant (never their tokens). */
const webhookApiKeyResource = defineResource({
  key: 'webhookApiKeys',
  list: '/api/webhooks/apikey',
  listQuery: (params: SearchParams) => ({
    search: params.text.trim() ? toSearch(term('name', CONTAINS_IGNORING_CASE, params.text.trim())) : undefined,
  }),
});

export const useWebhookActions = webhookActionResource.useList;
export const useWebhookAction = webhookActionResource.useDetail;
export const useWebhookApiKeys = webhookApiKeyResource.useList;

/** POST; `teamIds`: the action's teams (read-write), sent as the `teamIds` query. */
export function useCreateWebhookAction() {
  return webhookActionResource.useMutation(({ teamIds = [], ...input }: WebhookActionInput & { teamIds?: string[] }, { customerId }) =>
    ok(
      api.POST('/api/webhookEvent/actions', {
        params: { query: { ...writableTeamsQuery(teamIds), ...tenantQuery(customerId) } },
        body: input,
      }),
      as<WebhookAction>(),
    ),
  );
}

/** PUT: `name`, `enabled`, `action` and `actionParams` go together (what is left out becomes false or none). */
export function useUpdateWebhookAction() {
  return webhookActionResource.useMutation(({ id, input }: { id: number; input: WebhookActionChange }, { customerId }) =>
    ok(
      api.PUT('/api/webhookEvent/actions/{actionId}', {
        params: { path: { actionId: id }, query: tenantQuery(customerId) },
        body: input,
      }),
      as<WebhookAction>(),
    ),
  );
}

export function useDeleteWebhookAction() {
  return webhookActionResource.useMutation(
    (id: number, { customerId }) =>
      ok(api.DELETE('/api/webhookEvent/actions/{actionId}', { params: { path: { actionId: id }, query: tenantQuery(customerId) } })),
    { deletes: true },
  );
}

/**
 * The console's "Try it": fires the action as its trigger would, with `payload` as the trigger's body. Answers the
 * trigger's answer (202 queued with the execution's id, or 200 `errorReason: "disabled"`).
 */
export function useTryWebhookAction() {
  return webhookActionResource.useMutation(({ id, payload }: { id: number; payload: Schemas['WebhookTriggerPayload'] }, { customerId }) =>
    ok(
      api.POST('/api/webhookEvent/actions/{actionId}/test', {
        params: { path: { actionId: id }, query: tenantQuery(customerId) },
        body: payload,
      }),
      as<TriggerAnswer>(),
    ),
  );
}

/**
 * What the triggers of one action did, newest first. `isAwaiting` keeps reading (every second) while an execution the
 * page waits for is not listed with its outcome yet, or a listed one is still queued or running.
 */
export function useWebhookExecutions(
  actionId: number | null,
  { page, size, awaitedId }: { page: number; size: number; awaitedId?: string | null },
) {
  const customerId = webhookActionResource.useScope();

  return useQuery({
    queryKey: [...webhookActionResource.keys.all, 'executions', { customerId, actionId, page, size }] as const,
    queryFn: ({ signal }) =>
      ok(
        api.GET('/api/webhookEvent/actions/{actionId}/executions', {
          params: { path: { actionId: actionId! }, query: { page, size, ...tenantQuery(customerId) } },
          signal,
        }),
        as<Page<WebhookExecution>>(),
      ),
    enabled: actionId !== null,
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (isAwaiting(query.state.data, awaitedId) ? 1_000 : false),
  });
}

/** Whether an executions page still has something to wait for: the awaited execution or any without its outcome. */
export function isAwaiting(page: Pick<Page<WebhookExecution>, 'content'> | undefined, awaitedId?: string | null): boolean {
  if (!page) return false;
  if (page.content.some((execution) => !execution.outcome)) return true;

  return Boolean(awaitedId) && !page.content.some((execution) => execution.id === awaitedId);
}

/** POST; answers the key with its token, the one time it is ever shown. */
export function useCreateWebhookApiKey() {
  return webhookApiKeyResource.useMutation(({ name, restricted, teamIds }: WebhookApiKeyInput, { customerId }) =>
    ok(
      api.POST('/api/webhooks/apikey', {
        params: { query: tenantQuery(customerId) },
        body: { name, restricted, teamAccessList: teamAccessListOf(teamIds) },
      }),
      as<WebhookApiKey>(),
    ),
  );
}

/** PUT: the name, the restriction and (replacing them) the key's teams. */
export function useUpdateWebhookApiKey() {
  return webhookApiKeyResource.useMutation(({ id, input }: { id: string; input: WebhookApiKeyInput }, { customerId }) =>
    ok(
      api.PUT('/api/webhooks/apikey/{id}', {
        params: { path: { id }, query: tenantQuery(customerId) },
        body: { name: input.name, restricted: input.restricted, teamAccessList: teamAccessListOf(input.teamIds) },
      }),
      as<WebhookApiKey>(),
    ),
  );
}

/** DELETE: revokes the key at once. */
export function useDeleteWebhookApiKey() {
  return webhookApiKeyResource.useMutation(
    (id: string, { customerId }) =>
      ok(api.DELETE('/api/webhooks/apikey/{id}', { params: { path: { id }, query: tenantQuery(customerId) } })),
    { deletes: true },
  );
}

/** A key's teams as the API takes them: each read-write (the key acts in them). */
function teamAccessListOf(teamIds: readonly string[]) {
  return { teams: teamIds.map((id) => ({ id, readOnly: false })) };
}

/** The targets an action names, by kind of target: read by id from the resource's own list (one request). */
const TARGET_LISTS = {
  device: '/api/v2/device',
  deviceGroup: '/api/v2/deviceGroup',
  datasource: '/api/v2/datasource',
  campaign: '/api/v2/campaign',
  fileFolder: '/api/v2/fileFolder',
} as const;

type NamedTarget = Exclude<ActionTarget, 'none' | 'tag'>;

/** Whether the targets of `target` are ids of a resource (tags and "all" are their own names). */
function isNamedTarget(target: ActionTarget): target is NamedTarget {
  return target in TARGET_LISTS;
}

/** The names of the chosen targets (ids of devices, folders, datasources, campaigns), for the chips of a picker. */
export function useTargetNames(target: ActionTarget, ids: readonly string[], unnamed?: string) {
  const customerId = webhookActionResource.useScope();
  const teamReads = useTeamReads();
  const named = isNamedTarget(target) && ids.length > 0;

  return useQuery({
    queryKey: ['webhookTargets', target, { customerId, ids: [...ids].sort(), ...teamReads.params }] as const,
    queryFn: async ({ signal }): Promise<Map<string, string | null>> => {
      if (!isNamedTarget(target)) return new Map();
      const query = {
        search: toSearch(term('id', '∈', target === 'campaign' ? ids.map(Number) : ids)),
        select: 'name',
        size: ids.length,
        ...teamReads.params,
        ...tenantQuery(customerId),
      };
      const page = await readNames(TARGET_LISTS[target], query, signal);

      return new Map(page.content.flatMap((item) => (item.id === undefined ? [] : [[String(item.id), item.name ?? null] as const])));
    },
    // A nameless item (a tenant's root folder, of any tenant under "All tenants") reads as `unnamed`, else its id.
    select: (names) => new Map([...names].map(([id, name]) => [id, name ?? unnamed ?? id])),
    enabled: named && teamReads.ready,
    staleTime: 30_000,
  });
}

type NameQuery = { search?: string; select: string; size: number; customerId?: number; includeResourcesWithoutTeam?: true };

/** One page of names of one of the target lists (each answers `{ content: [{ id, name }] }` for `select=name`). */
function readNames(
  path: (typeof TARGET_LISTS)[NamedTarget],
  query: NameQuery,
  signal: AbortSignal,
): Promise<{ content: Array<{ id?: string | number; name?: string | null }> }> {
  switch (path) {
    case '/api/v2/device':
      return ok(api.GET(path, { params: { query }, signal }));
    case '/api/v2/deviceGroup':
      return ok(api.GET(path, { params: { query }, signal }));
    case '/api/v2/datasource':
      return ok(api.GET(path, { params: { query }, signal }));
    case '/api/v2/campaign':
      return ok(api.GET(path, { params: { query }, signal }));
    case '/api/v2/fileFolder':
      return ok(api.GET(path, { params: { query }, signal }));
  }
}
