import type { ServiceContext } from '@/server/context/service-context';
import { ValidationError } from '@/server/errors';
import { requestRefreshOfAllDatasources, runDatasourceAction, type DatasourceActionOp } from '@/server/modules/datasources';
import { runCampaignAction, type CampaignActionChange, type CampaignActionTarget } from '@/server/modules/campaigns';
import { runDeviceAction, type DeviceActionEffect, type DeviceActionTarget } from '@/server/modules/devices';
import {
  actionFamilyOf,
  type CampaignActionBase,
  type DatasourceActionType,
  type DeviceActionBase,
  type DeviceTargetSuffix,
} from './webhooks.schemas';
import type { ExecutionActor, WebhookActionRow } from './webhooks.table';

/*
 * What an action does with a trigger's payload (spec 3 "Webhook action", spec 5 §4): the action's family decides
 * which module's verb runs, the action's saved parameters come first and the payload fills what they leave open.
 * Each verb lives in its module (devices, datasources, campaigns, uploads); this file only translates.
 */

export type EffectOutcome = { affected: number; detail?: string };
export type Params = Record<string, unknown>;

/** The parameters of one execution: the payload, overridden by what the action saved. */
export function paramsOf(action: Pick<WebhookActionRow, 'actionParams'>, payload: unknown): Params {
  return { ...(payload && typeof payload === 'object' ? (payload as Params) : {}), ...(action.actionParams ?? {}) };
}

/** Runs every family but the upload (which downloads outside the transaction: webhook-executor.ts). */
export async function applyAction(ctx: ServiceContext<ExecutionActor>, action: WebhookActionRow, params: Params): Promise<EffectOutcome> {
  const family = actionFamilyOf(action.action ?? '');
  switch (family?.family) {
    case 'device':
      return runDeviceAction(ctx, { target: deviceTarget(family.suffix, action, params), effect: deviceEffect(family.base, params) });
    case 'datasource':
      return family.type === 'REFRESH_DATASOURCE_ALL'
        ? requestRefreshOfAllDatasources(ctx)
        : datasourceTargets(ctx, action, datasourceOp(family.type, params));
    case 'campaign':
      return runCampaignAction(ctx, { target: campaignTarget(family.byTags, action, params), change: campaignChange(family.base, params) });
    case 'folder':
      // (UPLOAD_FILE_TO_FOLDER downloads outside the transaction: webhook-executor.ts.) Synced folders (cloud shares) do not exist in this product yet: the action answers why, every time.
      throw new ValidationError(
        'webhook.error.noSyncedFolders',
        'FORCE_SYNC_SHARED_FOLDER needs a synced (shared) folder, and this server has none yet: nothing was synced',
      );
    case undefined:
      throw new ValidationError('webhook.error.unknownAction', `'${action.action}' is not an action type this server runs`);
  }
}

function datasourceTargets(ctx: ServiceContext<ExecutionActor>, action: WebhookActionRow, op: DatasourceActionOp): Promise<EffectOutcome> {
  return eachTarget(action, (datasourceId) => runDatasourceAction(ctx, { datasourceId, action: op }));
}

/** Runs `run` for each target of the action in turn; the affected counts add up. */
async function eachTarget(action: WebhookActionRow, run: (id: string) => Promise<EffectOutcome>): Promise<EffectOutcome> {
  let affected = 0;
  const details: string[] = [];
  for (const id of action.targetIds) {
    const outcome = await run(id);
    affected += outcome.affected;
    if (outcome.detail) details.push(outcome.detail);
  }

  return { affected, ...(details.length > 0 && { detail: details.join('; ') }) };
}

/** Tags of a tag action: its targets and `tag` (a comma-separated list allowed). */
function tagsOf(action: WebhookActionRow, params: Params): string[] {
  const fromParam = typeof params.tag === 'string' ? params.tag.split(',') : [];

  return [...new Set([...action.targetIds, ...fromParam].map((t) => t.trim()).filter((t) => t !== ''))];
}

function deviceTarget(suffix: DeviceTargetSuffix, action: WebhookActionRow, params: Params): DeviceActionTarget {
  switch (suffix) {
    case '':
      return { kind: 'devices', deviceIds: action.targetIds };
    case '_TAG':
      return { kind: 'tags', tags: tagsOf(action, params) };
    case '_GROUP':
      return { kind: 'folders', folderIds: action.targetIds };
    case '_ALL':
      return { kind: 'all' };
  }
}

function deviceEffect(base: DeviceActionBase, p: Params): DeviceActionEffect {
  switch (base) {
    case 'ENABLE_EMERGENCY_ON_DEVICE':
      return { name: 'emergency', emergencyStatus: true };
    case 'DISABLE_EMERGENCY_ON_DEVICE':
      return { name: 'emergency', emergencyStatus: false };
    case 'LOAD_URL_ON_DEVICE':
      return { name: 'loadUrl', url: text(p, 'url'), ...optionalDuration(p) };
    case 'PAUSE_CONTENT_ON_DEVICE':
      return { name: 'pauseContent' };
    case 'RESUME_CONTENT_ON_DEVICE':
      return { name: 'resumeContent' };
    case 'REFRESH_CONTENT_ON_DEVICE':
      return { name: 'refreshContent' };
    case 'SEND_SENSOR_EVENT_TO_DEVICE':
      return { name: 'sensorEvent', sensorData: p.sensorData ?? {} };
    case 'RESTART_DEVICE':
      return { name: 'restart' };
    case 'ASSIGN_CONTENT_ON_DEVICE':
      return { name: 'assignContent', contentId: text(p, 'contentId') };
    case 'PREVIEW_CONTENT_ON_DEVICE':
      return { name: 'previewContent', contentId: text(p, 'contentId'), ...optionalDuration(p) };
    case 'WAKE_UP_DEVICE':
      return { name: 'wakeUp' };
    case 'SNOOZE_DEVICE':
      return { name: 'snooze' };
    case 'SHOW_TOAST_MESSAGE_DEVICE':
      return { name: 'showToast', message: text(p, 'message'), ...optionalDuration(p) };
    case 'CHANGE_VOLUME_DEVICE':
      return { name: 'volume', level: integer(p, 'volumeLevel', { min: 0, max: 100 })! };
  }
}

function datasourceOp(type: Exclude<DatasourceActionType, 'REFRESH_DATASOURCE_ALL'>, p: Params): DatasourceActionOp {
  const keySelector = optionalText(p, 'keySelector');
  const index = integer(p, 'index', { optional: true });
  switch (type) {
    case 'REFRESH_DATASOURCE':
      return { op: 'refresh' };
    case 'SET_INTERNAL_DATASOURCE':
      return { op: 'set', data: jsonData(p) };
    case 'MERGE_INTERNAL_DATASOURCE':
      return { op: 'merge', patch: jsonData(p) };
    case 'INCREASE_VALUE_IN_DATASOURCE':
    case 'DECREASE_VALUE_IN_DATASOURCE':
      return {
        op: type === 'INCREASE_VALUE_IN_DATASOURCE' ? 'increase' : 'decrease',
        keySelector: text(p, 'keySelector'),
        minimumValue: integer(p, 'minimumValue', { optional: true }),
        maximumValue: integer(p, 'maximumValue', { optional: true }),
      };
    case 'INSERT_CAP_DATASOURCE':
      return { op: 'insertCap', data: text(p, 'data') };
    case 'CLEAR_CAP_DATASOURCE':
      return { op: 'clearCap', capIds: stringList(p, 'capIds'), removeAll: p.removeAll === true || p.removeAll === 'true' };
    case 'DELETE_BY_KEY_INTERNAL_DATASOURCE':
      return { op: 'deleteByKey', keySelector: text(p, 'keySelector') };
    case 'INSERT_TO_ARRAY_INTERNAL_DATASOURCE':
      return { op: 'insertToArray', keySelector, data: jsonData(p), index };
    case 'REMOVE_FROM_ARRAY_INTERNAL_DATASOURCE':
      return { op: 'removeFromArray', keySelector, index, ...(p.data !== undefined && { data: jsonData(p) }) };
    case 'EMPTY_ARRAY_INTERNAL_DATASOURCE':
      return { op: 'emptyArray', keySelector };
    case 'ROTATE_ARRAY_INTERNAL_DATASOURCE':
      return { op: 'rotateArray', keySelector };
    case 'REPLACE_OR_MERGE_ELEMENT_IN_ARRAY_INTERNAL_DATASOURCE':
      return { op: 'replaceOrMergeElement', keySelector, index, data: jsonData(p) };
  }
}

function campaignTarget(byTags: boolean, action: WebhookActionRow, params: Params): CampaignActionTarget {
  return byTags ? { kind: 'tags', tags: tagsOf(action, params) } : { kind: 'campaigns', campaignIds: action.targetIds };
}

function campaignChange(base: CampaignActionBase, p: Params): CampaignActionChange {
  switch (base) {
    case 'ENABLE_CAMPAIGN':
      return { enabled: true };
    case 'DISABLE_CAMPAIGN':
      return { enabled: false };
    case 'CHANGE_SATURATION_CAMPAIGN':
      return { saturation: number(p, 'saturation') };
    case 'CHANGE_PRIORITY_CAMPAIGN':
      return { priority: integer(p, 'priority')! };
  }
}

/*
 * Parameters arrive as JSON values, XML text or the action's saved strings: numbers and lists are read from either.
 */

function missing(name: string): ValidationError {
  return new ValidationError(
    'webhook.error.parameterRequired',
    `The action needs the parameter '${name}' (in the action or the trigger payload)`,
    {
      parameter: name,
    },
  );
}

export function optionalText(p: Params, name: string): string | undefined {
  const value = p[name];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new ValidationError('webhook.error.parameterInvalid', `The parameter '${name}' is text`, { parameter: name });
}

export function text(p: Params, name: string): string {
  const value = optionalText(p, name);
  if (value === undefined) throw missing(name);

  return value;
}

function number(p: Params, name: string): number {
  const raw = p[name];
  const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  if (raw === undefined || raw === null || raw === '') throw missing(name);
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw new ValidationError('webhook.error.parameterInvalid', `The parameter '${name}' is a number`, { parameter: name });

  return value;
}

function integer(p: Params, name: string, options: { optional?: boolean; min?: number; max?: number } = {}): number | undefined {
  if ((p[name] === undefined || p[name] === null || p[name] === '') && options.optional) return undefined;
  const value = number(p, name);
  const min = options.min ?? Number.MIN_SAFE_INTEGER;
  const max = options.max ?? Number.MAX_SAFE_INTEGER;
  if (!Number.isInteger(value) || value < min || value > max)
    throw new ValidationError('webhook.error.parameterInvalid', `The parameter '${name}' is an integer from ${min} to ${max}`, {
      parameter: name,
    });

  return value;
}

function optionalDuration(p: Params): { durationMs?: number } {
  const ms = integer(p, 'durationMs', { optional: true, min: 1_000, max: 86_400_000 });

  return ms === undefined ? {} : { durationMs: ms };
}

function stringList(p: Params, name: string): string[] | undefined {
  const value = p[name];
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) return value.map(String);
  if (typeof value === 'string')
    return value
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
  throw new ValidationError('webhook.error.parameterInvalid', `The parameter '${name}' is a list of text`, { parameter: name });
}

/** `data`: spec 3 says a string holding JSON; a JSON value sent as is is taken too. Text that is not JSON stays text. */
function jsonData(p: Params): unknown {
  const value = p.data;
  if (value === undefined || value === null) throw missing('data');
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}
