import {
  actionFamilyOf,
  actionTargetOf,
  campaignActionBases,
  datasourceActionTypes,
  deviceActionBases,
  folderActionTypes,
  webhookActionTypes,
} from '@/server/modules/webhooks/webhooks.schemas';
import type { Schemas } from '@/lib/api/types';

/*
 * The action form's model (spec 3 "Webhook action"): an action type is chosen as a family, then what it does, then
 * how it targets; its parameters are the ones that type reads (server/modules/webhooks/webhook-effects.ts). Pure:
 * the dialog words the choices (labels.json `webhookFamily`, `webhookAction`, `webhookTargeting`) and the problems.
 */

/** The families in the order the form offers them: screens, datasources, channels (campaigns), media folders. */
export const actionFamilies = ['device', 'datasource', 'campaign', 'folder'] as const;
export type ActionFamilyName = (typeof actionFamilies)[number];

/** How a device or campaign action picks its targets; `NONE` for the families whose type says it. */
const deviceTargetings = ['ONE', 'TAG', 'GROUP', 'ALL'] as const;
const campaignTargetings = ['BY_ID', 'BY_TAGS'] as const;
export const actionTargetings = [...deviceTargetings, ...campaignTargetings] as const;
export type Targeting = (typeof actionTargetings)[number] | 'NONE';

/** Every "what it does" of the label table: device and campaign bases, datasource and folder types. */
export const actionBases = [...deviceActionBases, ...datasourceActionTypes, ...folderActionTypes, ...campaignActionBases] as const;
export type ActionBase = (typeof actionBases)[number];

/** A device targeting's suffix of the action type (spec 3: none for one device). */
function deviceSuffixOf(targeting: Targeting): string | undefined {
  switch (targeting) {
    case 'ONE':
      return '';
    case 'TAG':
      return '_TAG';
    case 'GROUP':
      return '_GROUP';
    case 'ALL':
      return '_ALL';
    default:
      return undefined;
  }
}

export type WebhookActionType = Schemas['WebhookActionType'];

/** Whether `value` is an action type of spec 3 (the document's enum). */
function isActionType(value: string): value is WebhookActionType {
  return (webhookActionTypes as readonly string[]).includes(value);
}

/** What the family offers, in the label table's order. */
export function basesOf(family: ActionFamilyName): readonly ActionBase[] {
  switch (family) {
    case 'device':
      return deviceActionBases;
    case 'datasource':
      return datasourceActionTypes;
    case 'campaign':
      return campaignActionBases;
    case 'folder':
      return folderActionTypes;
  }
}

export function targetingsOf(family: ActionFamilyName): readonly Targeting[] {
  if (family === 'device') return deviceTargetings;
  if (family === 'campaign') return campaignTargetings;

  return ['NONE'];
}

export type ActionChoice = { family: ActionFamilyName; base: ActionBase; targeting: Targeting };

/** The action type of a choice; undefined for a base the family does not have. */
export function composeAction({ family, base, targeting }: ActionChoice): WebhookActionType | undefined {
  if (!basesOf(family).includes(base) || !targetingsOf(family).includes(targeting)) return undefined;
  const type = family === 'device' ? `${base}${deviceSuffixOf(targeting)}` : targeting === 'BY_TAGS' ? `${base}_BY_TAGS` : base;

  return isActionType(type) ? type : undefined;
}

/** The choice an action type was made of; undefined for a type spec 3 does not list. */
export function decomposeAction(action: string): ActionChoice | undefined {
  const parts = actionFamilyOf(action);
  switch (parts?.family) {
    case 'device': {
      const targeting = parts.suffix === '' ? 'ONE' : parts.suffix === '_TAG' ? 'TAG' : parts.suffix === '_GROUP' ? 'GROUP' : 'ALL';

      return { family: 'device', base: parts.base, targeting };
    }
    case 'campaign':
      return { family: 'campaign', base: parts.base, targeting: parts.byTags ? 'BY_TAGS' : 'BY_ID' };
    case 'datasource':
      return { family: 'datasource', base: parts.type, targeting: 'NONE' };
    case 'folder':
      return { family: 'folder', base: parts.type, targeting: 'NONE' };
    case undefined:
      return undefined;
  }
}

/** The first choice of a family: what the form shows when the family is picked. */
export function firstChoiceOf(family: ActionFamilyName): ActionChoice {
  return { family, base: basesOf(family)[0]!, targeting: targetingsOf(family)[0]! };
}

/** How the form asks for a parameter; `content` is a content id chosen from the library. */
type ParamKind = 'url' | 'text' | 'multiline' | 'integer' | 'number' | 'json' | 'content';
/** The parameter keys the form asks for (spec 3 "Trigger payload fields", and `url`, `name` of an upload). */
type ParamKey =
  | 'url'
  | 'name'
  | 'contentId'
  | 'message'
  | 'volumeLevel'
  | 'data'
  | 'keySelector'
  | 'minimumValue'
  | 'maximumValue'
  | 'index'
  | 'capIds'
  | 'saturation'
  | 'priority';
export type ParamField = { key: ParamKey; kind: ParamKind; min?: number; max?: number };

const url: ParamField = { key: 'url', kind: 'url' };
const keySelector: ParamField = { key: 'keySelector', kind: 'text' };
const index: ParamField = { key: 'index', kind: 'integer', min: 0 };
const jsonData: ParamField = { key: 'data', kind: 'json' };

/** The parameters an action type reads (each may also come from the trigger's payload, which fills what is left open). */
export function paramFieldsOf(action: string): ParamField[] {
  const choice = decomposeAction(action);
  switch (choice?.base) {
    case 'LOAD_URL_ON_DEVICE':
      return [url];
    case 'ASSIGN_CONTENT_ON_DEVICE':
    case 'PREVIEW_CONTENT_ON_DEVICE':
      return [{ key: 'contentId', kind: 'content' }];
    case 'SHOW_TOAST_MESSAGE_DEVICE':
      return [{ key: 'message', kind: 'multiline' }];
    case 'CHANGE_VOLUME_DEVICE':
      return [{ key: 'volumeLevel', kind: 'integer', min: 0, max: 100 }];
    case 'SET_INTERNAL_DATASOURCE':
    case 'MERGE_INTERNAL_DATASOURCE':
      return [jsonData];
    case 'INCREASE_VALUE_IN_DATASOURCE':
    case 'DECREASE_VALUE_IN_DATASOURCE':
      return [keySelector, { key: 'minimumValue', kind: 'integer' }, { key: 'maximumValue', kind: 'integer' }];
    case 'INSERT_CAP_DATASOURCE':
      return [{ key: 'data', kind: 'multiline' }];
    case 'CLEAR_CAP_DATASOURCE':
      return [{ key: 'capIds', kind: 'text' }];
    case 'DELETE_BY_KEY_INTERNAL_DATASOURCE':
    case 'EMPTY_ARRAY_INTERNAL_DATASOURCE':
    case 'ROTATE_ARRAY_INTERNAL_DATASOURCE':
      return [keySelector];
    case 'INSERT_TO_ARRAY_INTERNAL_DATASOURCE':
    case 'REPLACE_OR_MERGE_ELEMENT_IN_ARRAY_INTERNAL_DATASOURCE':
      return [keySelector, jsonData, index];
    case 'REMOVE_FROM_ARRAY_INTERNAL_DATASOURCE':
      return [keySelector, index];
    case 'CHANGE_SATURATION_CAMPAIGN':
      return [{ key: 'saturation', kind: 'number', min: 0 }];
    case 'CHANGE_PRIORITY_CAMPAIGN':
      return [{ key: 'priority', kind: 'integer' }];
    case 'UPLOAD_FILE_TO_FOLDER':
      return [url, { key: 'name', kind: 'text' }];
    default:
      return [];
  }
}

/** Every parameter key some action type of the form reads: a saved key outside it is the API caller's own, and kept. */
const FORM_PARAM_KEYS = new Set<string>(['tag', ...webhookActionTypes.flatMap((type) => paramFieldsOf(type).map((field) => field.key))]);

type ParamProblem = 'url' | 'integer' | 'number' | 'min' | 'max' | 'json';
export type ParamIssue = { key: ParamKey; problem: ParamProblem; min?: number; max?: number };

/** What is wrong with the parameters the form holds for `action` (an empty one is left to the trigger's payload). */
export function paramIssues(action: string, params: Readonly<Record<string, string>>): ParamIssue[] {
  const issues: ParamIssue[] = [];
  for (const field of paramFieldsOf(action)) {
    const value = (params[field.key] ?? '').trim();
    if (value === '') continue;
    const problem = problemOf(field, value);
    if (problem)
      issues.push({
        key: field.key,
        problem,
        ...(field.min !== undefined && { min: field.min }),
        ...(field.max !== undefined && { max: field.max }),
      });
  }

  return issues;
}

function problemOf(field: ParamField, value: string): ParamProblem | undefined {
  switch (field.kind) {
    case 'url':
      return isWebUrl(value) ? undefined : 'url';
    case 'json':
      return isJson(value) ? undefined : 'json';
    case 'integer':
    case 'number': {
      const n = Number(value);
      if (!Number.isFinite(n)) return field.kind === 'integer' ? 'integer' : 'number';
      if (field.kind === 'integer' && !Number.isInteger(n)) return 'integer';
      if (field.min !== undefined && n < field.min) return 'min';
      if (field.max !== undefined && n > field.max) return 'max';

      return undefined;
    }
    default:
      return undefined;
  }
}

function isWebUrl(value: string): boolean {
  try {
    const parsed = new URL(value);

    return parsed.protocol === 'http:' || parsed.protocol === 'https:';
  } catch {
    return false;
  }
}

function isJson(value: string): boolean {
  try {
    JSON.parse(value);

    return true;
  } catch {
    return false;
  }
}

/** The form's state of an action (new or saved). Targets of tag actions are the tags. */
export type ActionFormValues = ActionChoice & {
  name: string;
  eventId: string;
  enabled: boolean;
  targetIds: string[];
  params: Record<string, string>;
  teamIds: string[];
};

/** A new action's form: a screen action, disabled until enabled (spec 3: created disabled). */
export function newActionValues(teamIds: string[]): ActionFormValues {
  return { ...firstChoiceOf('device'), name: '', eventId: '', enabled: false, targetIds: [], params: {}, teamIds };
}

type SavedAction = {
  name: string;
  eventId?: string;
  enabled?: boolean;
  action?: string;
  actionParams?: Record<string, string> | null;
  targetData?: { targetIds: string[] };
};

/** A saved action in the form: a tag action's `tag` parameter (comma-separated) joins its tags. */
export function actionFormValues(action: SavedAction): ActionFormValues {
  const choice = decomposeAction(action.action ?? '') ?? firstChoiceOf('device');
  const { tag, ...params } = action.actionParams ?? {};
  const isTag = actionTargetOf(action.action ?? '') === 'tag';
  const tags = isTag && tag ? tag.split(',').map((t) => t.trim()) : [];
  const targetIds = [...new Set([...(action.targetData?.targetIds ?? []), ...tags].filter((id) => id !== ''))];

  return {
    ...choice,
    name: action.name,
    eventId: action.eventId ?? '',
    enabled: action.enabled ?? false,
    targetIds,
    params: isTag || tag === undefined ? params : { ...params, tag },
    teamIds: [],
  };
}

/**
 * The saved parameters of the form's action: its own fields that are filled (trimmed), and keys the form does not
 * know (an API caller's), which pass to the action as they are. A known key of another type is left behind.
 */
export function actionParamsOf(action: string, params: Readonly<Record<string, string>>): Record<string, string> | null {
  const own = new Set<string>(paramFieldsOf(action).map((field) => field.key));
  const kept = Object.entries(params)
    .filter(([key, value]) => (own.has(key) ? value.trim() !== '' : !FORM_PARAM_KEYS.has(key)))
    .map(([key, value]) => [key, own.has(key) ? value.trim() : value] as const);

  return kept.length > 0 ? Object.fromEntries(kept) : null;
}

/** The create body of the form (undefined when the choice is not an action type, which the form prevents). */
export function createBody(values: ActionFormValues): (Schemas['WebhookActionCreate'] & { teamIds: string[] }) | undefined {
  const action = composeAction(values);
  if (!action) return undefined;
  const target = actionTargetOf(action);

  return {
    name: values.name.trim(),
    eventId: values.eventId.trim(),
    enabled: values.enabled,
    action,
    actionParams: actionParamsOf(action, values.params),
    ...(target !== 'none' && { targetData: { targetIds: values.targetIds } }),
    teamIds: values.teamIds,
  };
}

/** The update body: every attribute, targets included (an action without targets clears what it had). */
export function updateBody(values: ActionFormValues): Schemas['WebhookActionUpdate'] | undefined {
  const action = composeAction(values);
  if (!action) return undefined;

  return {
    name: values.name.trim(),
    eventId: values.eventId.trim(),
    enabled: values.enabled,
    action,
    actionParams: actionParamsOf(action, values.params),
    targetData: { targetIds: actionTargetOf(action) === 'none' ? [] : values.targetIds },
  };
}

/** The PUT of the list's switch: spec 3 sends name, action, enabled and actionParams together; targets and event id are kept. */
export function enabledBody(
  action: { name: string; action?: string; actionParams?: Record<string, string> | null },
  enabled: boolean,
): Schemas['WebhookActionUpdate'] | undefined {
  if (!action.action || !isActionType(action.action)) return undefined;

  return { name: action.name, action: action.action, enabled, actionParams: action.actionParams ?? null };
}

/** Whether an action writes into a datasource's own data, which only INTERNAL datasources keep (spec 5 §2). */
export function needsInternalDatasource(action: string): boolean {
  return /(_INTERNAL_DATASOURCE|_VALUE_IN_DATASOURCE)$/.test(action);
}
