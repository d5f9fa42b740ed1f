import type { Path } from 'react-hook-form';
import type { z } from 'zod';
import type { Datasource, DatasourceCreate, DatasourceUpdateInput } from '@/lib/api/datasources';
import {
  capSeverities,
  DatasourceCreateSchema,
  DEFAULT_REFRESH_SECONDS,
  externalTypes,
  kindIssues,
  RequestSettingsSchema,
  STRUCTURE_OF_TYPE,
  type SourceType,
  type StructureType,
  type SystemType,
} from '@/server/modules/datasources/datasources.schemas';
import { httpUrl } from '@/server/http/wire.schemas';
import { isCronExpression } from '@/server/modules/advertisers/advertisers.schemas';

/*
 * The datasource form's values and rules, without React: the form holds flat strings (what inputs hold), builds the
 * module's create or update body from them, and checks them with the module's own schema and `kindIssues` (the
 * server runs the same), answering each issue as a form field and a reason the dialog words.
 */

/** The external types the console offers: every one the server fetches. */
export const FORM_EXTERNAL_TYPES = externalTypes;
type FormExternalType = (typeof FORM_EXTERNAL_TYPES)[number];
/** The structures a person chooses: for an internal datasource, and for JSON and XML (the others' follows the type). */
export const CHOSEN_STRUCTURES = ['KEY_VALUE', 'LIST', 'TABLE', 'FEED', 'CUSTOM'] as const satisfies readonly StructureType[];
export const FORM_SYSTEM_TYPES = ['FILES', 'DEVICES'] as const satisfies readonly SystemType[];

const MINUTES_MAX = 31 * 24 * 60;
const LIMITS = {
  refreshMinutes: { min: 1, max: MINUTES_MAX },
  keepLastXDays: { min: 1, max: 3_650 },
  keepLastXItem: { min: 1, max: 10_000 },
  maxElementCount: { min: 1, max: 1_000 },
} as const;

type HeaderRow = { name: string; value: string };
type SelectorRow = { name: string; selector: string; attribute: string };

export type DatasourceFormValues = {
  name: string;
  comment: string;
  sourceType: SourceType;
  /** The chosen structure (internal, JSON, XML); the others take their type's (`structureOf`). */
  structureType: StructureType;
  type: FormExternalType;
  systemDatasourceType: SystemType;
  editableByDisplay: boolean;
  remoteUrl: string;
  method: 'GET' | 'POST';
  headers: HeaderRow[];
  body: string;
  jsonPath: string;
  keepLastXDays: string;
  keepLastXItem: string;
  timeZone: string;
  dateFormat: string;
  timeFormat: string;
  areaFilter: string;
  minimumSeverity: '' | (typeof capSeverities)[number];
  selectors: SelectorRow[];
  refreshMode: 'frequency' | 'cron';
  refreshMinutes: string;
  cronExpression: string;
  cronTimeZone: string;
  quickFilterId: string;
  maxElementCount: string;
  /** FILE_FROM_URL: the media folder the file is kept in. */
  fileFolderId: string;
  deactivated: boolean;
  teamIds: string[];
  tags: string[];
};

/** A field of the form, rows' inputs included (`headers.0.name`). */
export type FormField = Path<DatasourceFormValues>;

/** Why a field is refused; the dialog words it (`min`/`max` for a range, `max` for a length). */
export type FormIssue = {
  field: FormField;
  reason: 'required' | 'badUrl' | 'badCron' | 'wholeNumber' | 'range' | 'badHeaderName' | 'twice' | 'tooLong' | 'invalid';
  min?: number;
  max?: number;
};

/** A new datasource's values: internal key/value, refreshed every 5 minutes once external, zones the user's own. */
export function newFormValues(zone: string): DatasourceFormValues {
  return {
    name: '',
    comment: '',
    sourceType: 'INTERNAL',
    structureType: 'KEY_VALUE',
    type: 'JSON',
    systemDatasourceType: 'FILES',
    editableByDisplay: false,
    remoteUrl: '',
    method: 'GET',
    headers: [],
    body: '',
    jsonPath: '',
    keepLastXDays: '',
    keepLastXItem: '',
    timeZone: zone,
    dateFormat: '',
    timeFormat: '',
    areaFilter: '',
    minimumSeverity: '',
    selectors: [{ name: '', selector: '', attribute: '' }],
    refreshMode: 'frequency',
    refreshMinutes: String(DEFAULT_REFRESH_SECONDS / 60),
    cronExpression: '',
    cronTimeZone: zone,
    quickFilterId: '',
    maxElementCount: '',
    fileFolderId: '',
    deactivated: false,
    teamIds: [],
    tags: [],
  };
}

const text = (value: string | number | null | undefined) => (value === null || value === undefined ? '' : String(value));
const isFormExternalType = (type: string | null | undefined): type is FormExternalType =>
  (FORM_EXTERNAL_TYPES as readonly string[]).includes(type ?? '');
const isSystemType = (type: string | null | undefined): type is SystemType => (FORM_SYSTEM_TYPES as readonly string[]).includes(type ?? '');

/** A stored datasource's values, for its edit dialog. */
export function formValuesOf(d: Datasource, zone: string): DatasourceFormValues {
  const empty = newFormValues(zone);
  const cron = d.cronExpressionParameters;
  const selectors = d.webScraperParameters?.selectors ?? [];

  return {
    ...empty,
    name: d.name ?? '',
    comment: d.comment ?? '',
    tags: d.tags ?? [],
    sourceType: d.sourceType ?? 'INTERNAL',
    structureType: d.structureType ?? 'CUSTOM',
    type: isFormExternalType(d.type) ? d.type : empty.type,
    systemDatasourceType: isSystemType(d.systemDatasourceType) ? d.systemDatasourceType : empty.systemDatasourceType,
    editableByDisplay: d.editableByDisplay ?? false,
    remoteUrl: d.remoteUrl ?? '',
    method: d.requestSettings?.method ?? 'GET',
    headers: Object.entries(d.requestSettings?.headers ?? {}).map(([name, value]) => ({ name, value })),
    body: d.requestSettings?.body ?? '',
    jsonPath: d.requestSettings?.jsonPath ?? '',
    keepLastXDays: text(d.keepLastXDays),
    keepLastXItem: text(d.keepLastXItem),
    timeZone: d.timeZone ?? zone,
    dateFormat: d.dateFormat ?? '',
    timeFormat: d.timeFormat ?? '',
    areaFilter: d.capParameters?.areaFilter ?? '',
    minimumSeverity: d.capParameters?.minimumSeverity ?? '',
    selectors: selectors.length
      ? selectors.map((s) => ({ name: s.name, selector: s.selector, attribute: s.attribute ?? '' }))
      : empty.selectors,
    refreshMode: cron ? 'cron' : 'frequency',
    refreshMinutes: d.refreshFrequency ? text(Math.max(1, Math.round(d.refreshFrequency / 60))) : empty.refreshMinutes,
    cronExpression: cron?.cronExpression ?? '',
    cronTimeZone: cron?.timeZone ?? zone,
    quickFilterId: d.quickFilterId ?? '',
    maxElementCount: text(d.maxElementCount),
    fileFolderId: d.fileFolderId ?? '',
    deactivated: d.deactivated ?? false,
  };
}

/** The structure the datasource gets: its type's where the type decides (RSS → FEED), else the chosen one. */
export function structureOf(
  v: Pick<DatasourceFormValues, 'sourceType' | 'type' | 'systemDatasourceType' | 'structureType'>,
): StructureType {
  if (v.sourceType === 'EXTERNAL') return STRUCTURE_OF_TYPE[v.type] ?? v.structureType;
  if (v.sourceType === 'SYSTEM') return STRUCTURE_OF_TYPE[v.systemDatasourceType] ?? v.structureType;

  return v.structureType;
}

/** Whether the person chooses the structure (internal, JSON, XML) or the type sets it. */
export function choosesStructure(v: Pick<DatasourceFormValues, 'sourceType' | 'type'>): boolean {
  return v.sourceType === 'INTERNAL' || (v.sourceType === 'EXTERNAL' && (v.type === 'JSON' || v.type === 'XML'));
}

/** A whole number typed into a field; undefined when empty or not one. */
function wholeNumber(value: string): number | undefined {
  const trimmed = value.trim();

  return /^\d{1,9}$/.test(trimmed) ? Number(trimmed) : undefined;
}

const filled = (value: string) => (value.trim() ? value.trim() : undefined);

function requestSettingsOf(v: DatasourceFormValues): NonNullable<DatasourceCreate['requestSettings']> {
  const rows = v.headers.filter((h) => h.name.trim() || h.value.trim());

  return {
    method: v.method,
    ...(rows.length ? { headers: Object.fromEntries(rows.map((h) => [h.name.trim(), h.value])) } : {}),
    ...(v.method === 'POST' && v.body ? { body: v.body } : {}),
    ...(filled(v.jsonPath) ? { jsonPath: v.jsonPath.trim() } : {}),
  };
}

function capParametersOf(v: DatasourceFormValues): NonNullable<DatasourceCreate['capParameters']> {
  return {
    ...(filled(v.areaFilter) ? { areaFilter: v.areaFilter.trim() } : {}),
    ...(v.minimumSeverity ? { minimumSeverity: v.minimumSeverity } : {}),
  };
}

function selectorsOf(v: DatasourceFormValues): NonNullable<DatasourceCreate['webScraperParameters']> {
  return {
    selectors: v.selectors
      .filter((s) => s.name.trim() || s.selector.trim() || s.attribute.trim())
      .map((s) => ({
        name: s.name.trim(),
        selector: s.selector.trim(),
        ...(filled(s.attribute) ? { attribute: s.attribute.trim() } : {}),
      })),
  };
}

/** The settings of the form's kind, as the create body names them (no field of another kind). */
function kindSettingsOf(v: DatasourceFormValues): Omit<DatasourceCreate, 'name' | 'sourceType' | 'structureType' | 'comment'> {
  if (v.sourceType === 'INTERNAL') return { editableByDisplay: v.editableByDisplay };
  if (v.sourceType === 'SYSTEM') {
    const max = wholeNumber(v.maxElementCount);

    return {
      systemDatasourceType: v.systemDatasourceType,
      ...(v.systemDatasourceType === 'FILES' && v.quickFilterId ? { quickFilterId: v.quickFilterId } : {}),
      ...(max !== undefined ? { maxElementCount: max } : {}),
    };
  }
  const minutes = wholeNumber(v.refreshMinutes);
  const days = wholeNumber(v.keepLastXDays);
  const items = wholeNumber(v.keepLastXItem);

  return {
    type: v.type,
    ...(filled(v.remoteUrl) ? { remoteUrl: v.remoteUrl.trim() } : {}),
    ...(v.refreshMode === 'cron'
      ? { cronExpressionParameters: { cronExpression: v.cronExpression.trim(), timeZone: v.cronTimeZone } }
      : minutes !== undefined
        ? { refreshFrequency: minutes * 60 }
        : {}),
    ...(v.type === 'JSON' || v.type === 'XML' ? { requestSettings: requestSettingsOf(v) } : {}),
    ...(v.type === 'RSS'
      ? { ...(days !== undefined ? { keepLastXDays: days } : {}), ...(items !== undefined ? { keepLastXItem: items } : {}) }
      : {}),
    ...(v.type === 'ICAL'
      ? {
          ...(v.timeZone ? { timeZone: v.timeZone } : {}),
          ...(filled(v.dateFormat) ? { dateFormat: v.dateFormat.trim() } : {}),
          ...(filled(v.timeFormat) ? { timeFormat: v.timeFormat.trim() } : {}),
        }
      : {}),
    ...(v.type === 'CAP' ? { capParameters: capParametersOf(v) } : {}),
    ...(v.type === 'WEBSITE_CONTENT' ? { webScraperParameters: selectorsOf(v) } : {}),
    ...(v.type === 'FILE_FROM_URL' && v.fileFolderId ? { fileFolderId: v.fileFolderId } : {}),
  };
}

/** POST /api/datasource (and the "Test"): the form's kind and only its settings. */
export function createBodyOf(v: DatasourceFormValues): DatasourceCreate {
  return {
    name: v.name.trim(),
    sourceType: v.sourceType,
    structureType: structureOf(v),
    ...(filled(v.comment) ? { comment: v.comment.trim() } : {}),
    ...(v.tags.length > 0 ? { tags: v.tags } : {}),
    ...kindSettingsOf(v),
  };
}

/**
 * PUT /api/datasource/{id}: the metadata and the kind's settings (the kinds are fixed). An update keeps what it
 * omits, so what the form emptied is sent cleared: RSS limits as "", a schedule given up for a frequency as "".
 */
export function updateBodyOf(v: DatasourceFormValues, original: Datasource): DatasourceUpdateInput {
  // The kinds are fixed at creation: the update body has no place for them.
  const { type: _type, systemDatasourceType: _systemType, ...settings } = kindSettingsOf(v);
  const body: DatasourceUpdateInput = {
    name: v.name.trim(),
    comment: v.comment.trim(),
    tags: v.tags,
    deactivated: v.deactivated,
    ...settings,
  };
  if (v.sourceType === 'EXTERNAL') {
    if (v.refreshMode === 'frequency' && original.cronExpressionParameters) body.cronExpressionParameters = '';
    if (v.type === 'RSS') {
      body.keepLastXDays = settings.keepLastXDays ?? '';
      body.keepLastXItem = settings.keepLastXItem ?? '';
    }
    if (v.type === 'ICAL') {
      body.dateFormat = v.dateFormat.trim();
      body.timeFormat = v.timeFormat.trim();
    }
  }

  return body;
}

/** The form field an issue of the create body names (`requestSettings.headers.X` → `headers`). */
export function formFieldOf(path: ReadonlyArray<PropertyKey>): FormField | undefined {
  const [first, second, third, fourth] = path.map(String);
  switch (first) {
    case 'requestSettings':
      return second === 'headers' ? 'headers' : second === 'body' || second === 'jsonPath' || second === 'method' ? second : 'remoteUrl';
    case 'refreshFrequency':
      return 'refreshMinutes';
    case 'cronExpressionParameters':
      return second === 'timeZone' ? 'cronTimeZone' : 'cronExpression';
    case 'capParameters':
      return second === 'minimumSeverity' ? 'minimumSeverity' : 'areaFilter';
    case 'webScraperParameters':
      return second === 'selectors' && /^\d+$/.test(third ?? '') && (fourth === 'name' || fourth === 'selector' || fourth === 'attribute')
        ? `selectors.${Number(third)}.${fourth}`
        : 'selectors';
    case 'name':
    case 'comment':
    case 'tags':
    case 'structureType':
    case 'type':
    case 'systemDatasourceType':
    case 'editableByDisplay':
    case 'remoteUrl':
    case 'timeZone':
    case 'dateFormat':
    case 'timeFormat':
    case 'keepLastXDays':
    case 'keepLastXItem':
    case 'quickFilterId':
    case 'maxElementCount':
    case 'fileFolderId':
      return first;
    default:
      return undefined;
  }
}

/** The reason of an issue of the module's schema, by its code (the schema's own sentences are English). */
function reasonOf(issue: z.core.$ZodIssue): Pick<FormIssue, 'reason' | 'max'> {
  if (issue.code === 'invalid_type') return { reason: 'required' };
  if (issue.code === 'too_big' && issue.origin === 'string') return { reason: 'tooLong', max: Number(issue.maximum) };
  if (issue.code === 'too_small' && issue.origin === 'string') return { reason: 'required' };
  if (issue.code === 'too_small' && issue.origin === 'array') return { reason: 'required' };

  return { reason: 'invalid' };
}

/** Checks of what a person types, in the console's terms (before the body exists). */
function typedIssues(v: DatasourceFormValues): FormIssue[] {
  const issues: FormIssue[] = [];
  const number = (field: keyof typeof LIMITS, required: boolean) => {
    const raw = v[field].trim();
    if (!raw) {
      if (required) issues.push({ field, reason: 'required' });

      return;
    }
    const value = wholeNumber(raw);
    if (value === undefined) issues.push({ field, reason: 'wholeNumber' });
    else if (value < LIMITS[field].min || value > LIMITS[field].max) issues.push({ field, reason: 'range', ...LIMITS[field] });
  };
  if (v.sourceType === 'SYSTEM') number('maxElementCount', false);
  if (v.sourceType !== 'EXTERNAL') return issues;
  if (!v.remoteUrl.trim()) issues.push({ field: 'remoteUrl', reason: 'required' });
  else if (!httpUrl.safeParse(v.remoteUrl.trim()).success) issues.push({ field: 'remoteUrl', reason: 'badUrl' });
  if (v.refreshMode === 'frequency') number('refreshMinutes', true);
  else if (!v.cronExpression.trim()) issues.push({ field: 'cronExpression', reason: 'required' });
  else if (!isCronExpression(v.cronExpression.trim())) issues.push({ field: 'cronExpression', reason: 'badCron' });
  if (v.type === 'RSS') {
    number('keepLastXDays', false);
    number('keepLastXItem', false);
  }
  if (v.type === 'JSON' || v.type === 'XML') {
    const seen = new Set<string>();
    v.headers.forEach((h, i) => {
      if (!h.name.trim() && !h.value.trim()) return;
      const name = h.name.trim().toLowerCase();
      if (!name) issues.push({ field: `headers.${i}.name`, reason: 'required' });
      else if (!RequestSettingsSchema.safeParse({ headers: { [h.name.trim()]: '' } }).success)
        issues.push({ field: `headers.${i}.name`, reason: 'badHeaderName' });
      else if (seen.has(name)) issues.push({ field: `headers.${i}.name`, reason: 'twice' });
      seen.add(name);
    });
  }
  if (v.type === 'WEBSITE_CONTENT') {
    const seen = new Set<string>();
    v.selectors.forEach((s, i) => {
      if (!s.name.trim() && !s.selector.trim() && !s.attribute.trim()) return;
      if (!s.name.trim()) issues.push({ field: `selectors.${i}.name`, reason: 'required' });
      else if (seen.has(s.name.trim())) issues.push({ field: `selectors.${i}.name`, reason: 'twice' });
      if (!s.selector.trim()) issues.push({ field: `selectors.${i}.selector`, reason: 'required' });
      seen.add(s.name.trim());
    });
    if (!v.selectors.some((s) => s.name.trim() || s.selector.trim())) issues.push({ field: 'selectors.0.name', reason: 'required' });
  }

  return issues;
}

/**
 * Every issue of the form: what was typed, then the module's create schema and `kindIssues` over the body it makes
 * (the server's own checks), each on its field and once per field. Empty when the body can be sent.
 */
export function formIssues(v: DatasourceFormValues): FormIssue[] {
  const issues = typedIssues(v);
  const has = (field: FormField) => issues.some((i) => i.field === field);
  const add = (issue: FormIssue) => {
    if (!has(issue.field)) issues.push(issue);
  };
  const body = createBodyOf(v);
  const parsed = DatasourceCreateSchema.safeParse(body);
  if (!parsed.success)
    for (const issue of parsed.error.issues) {
      const field = formFieldOf(issue.path);
      if (field) add({ field, ...reasonOf(issue) });
    }
  for (const issue of kindIssues(body)) {
    const field = formFieldOf(issue.path);
    if (field) add({ field, reason: 'required' });
  }

  return issues;
}
