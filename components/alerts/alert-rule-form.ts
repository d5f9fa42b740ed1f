import { z } from 'zod';
import type { AlertRule, AlertRuleRequest } from '@/lib/api/alerts';
import type { Translate } from '@/lib/i18n/translate';
import { wireTimeZone } from '@/lib/time-zones';
import { resourceName } from '@/server/http/wire.schemas';
import { alertRuleTypes, CHANNELS_MAX, PLACEHOLDERS, THRESHOLD_MAX, type AlertRuleType } from '@/server/modules/alerts/alert-rules.schemas';
import { dayNames, type DayName } from '@/server/playback/schedule-rules.schemas';

/*
 * The alert rule form (spec 2 "Alert rule") and its mapping to and from the API's body. The form is flat (one field
 * per control, numbers as typed); the body nests the condition and the working days and time.
 */

export type Words = Translate<'alerts.ruleForm'>;

export const TEMPLATE_FIELDS = ['emailSubject', 'emailBody', 'sms', 'fixedSms'] as const;
type TemplateField = (typeof TEMPLATE_FIELDS)[number];

/** Each form template field and the rule attribute it is (README "Notifications and message templates"). */
const TEMPLATE_ATTRIBUTES = {
  emailSubject: 'evaluateSummaryEmailTemplate',
  emailBody: 'alertEmailTemplate',
  sms: 'alertSmsTemplate',
  fixedSms: 'alertFixedSmsTemplate',
} as const satisfies Record<TemplateField, keyof AlertRule>;

/** The placeholders the templates know (the server's one list). */
export const TEMPLATE_PLACEHOLDERS = PLACEHOLDERS;

const MINUTES_PER_YEAR = 525_600;
const MINUTES_PER_DAY = 1_440;
const MINUTES_PER_WEEK = 10_080;
const TEMPLATE_MAX = 10_000;
const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

export type AlertRuleFormValues = {
  type: AlertRuleType;
  name: string;
  comment: string;
  enabled: boolean;
  inactiveMinutes: string;
  deviceGroupId: string;
  recursive: boolean;
  excludeDeviceGroupIds: string[];
  /** Single screens left out (the rule's `condition.excludeDeviceIds`). */
  excludeDeviceIds: string[];
  tags: string[];
  tagOperator: 'AND' | 'OR';
  tagFilterType: 'INCLUDE' | 'EXCLUDE';
  threshold: string;
  workingDays: Record<DayName, boolean>;
  allDay: boolean;
  from: string;
  end: string;
  timeZone: string;
  evaluateMinutes: string;
  delayMinutes: string;
  channelIds: number[];
  teamIds: string[];
} & Record<TemplateField, string>;

const WEEKDAYS: Record<DayName, boolean> = {
  monday: true,
  tuesday: true,
  wednesday: true,
  thursday: true,
  friday: true,
  saturday: false,
  sunday: false,
};

/** A new rule: screens offline for 15 minutes, on weekdays 08:00–18:00 in the user's zone, checked every 5 minutes. */
export function newAlertRuleValues({ timeZone, teamIds }: { timeZone: string; teamIds: string[] }): AlertRuleFormValues {
  return {
    type: 'DeviceOffline',
    name: '',
    comment: '',
    enabled: true,
    inactiveMinutes: '15',
    deviceGroupId: '',
    recursive: true,
    excludeDeviceGroupIds: [],
    excludeDeviceIds: [],
    tags: [],
    tagOperator: 'OR',
    tagFilterType: 'INCLUDE',
    threshold: '3',
    workingDays: { ...WEEKDAYS },
    allDay: false,
    from: '08:00',
    end: '18:00',
    timeZone,
    evaluateMinutes: '5',
    delayMinutes: '0',
    channelIds: [],
    teamIds,
    emailSubject: '',
    emailBody: '',
    sms: '',
    fixedSms: '',
  };
}

const text = (value: unknown, fallback = ''): string => (typeof value === 'string' ? value : fallback);
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);
const numberText = (value: unknown, fallback: string): string => (typeof value === 'number' ? String(value) : fallback);
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** The form's values of a rule as the API answers it (`condition` and `workingTime` are open records on the wire). */
export function alertRuleFormValues(rule: AlertRule, { timeZone }: { timeZone: string }): AlertRuleFormValues {
  const base = newAlertRuleValues({ timeZone, teamIds: [] });
  const condition = rule.condition ?? {};
  const tagFilter = isRecord(condition.tagFilter) ? condition.tagFilter : null;
  const time = rule.workingTime ?? {};
  const days = rule.workingDays;
  const seconds = rule.scheduledEvaluateSeconds ?? 300;
  const templates = Object.fromEntries(TEMPLATE_FIELDS.map((field) => [field, rule[TEMPLATE_ATTRIBUTES[field]] ?? ''])) as Record<
    TemplateField,
    string
  >;

  return {
    ...base,
    ...templates,
    type: rule['@type'] ?? rule.dtype ?? 'DeviceOffline',
    name: rule.name ?? '',
    comment: rule.comment ?? '',
    enabled: rule.enabled ?? true,
    inactiveMinutes: numberText(condition.inactiveMinutes, base.inactiveMinutes),
    deviceGroupId: text(condition.deviceGroupId),
    recursive: condition.recursive !== false,
    excludeDeviceGroupIds: strings(condition.excludeDeviceGroupIds),
    excludeDeviceIds: strings(condition.excludeDeviceIds),
    tags: strings(tagFilter?.tags),
    tagOperator: tagFilter?.logicalOperator === 'AND' ? 'AND' : 'OR',
    tagFilterType: tagFilter?.tagFilterType === 'EXCLUDE' ? 'EXCLUDE' : 'INCLUDE',
    threshold: numberText(condition.threshold, base.threshold),
    // A rule without working days (null) never evaluates: no day is ticked.
    workingDays: Object.fromEntries(dayNames.map((day) => [day, days?.[day] === true])) as Record<DayName, boolean>,
    allDay: time.allDay === true || (time.from === undefined && time.end === undefined),
    from: text(time.from, base.from),
    end: text(time.end, base.end),
    timeZone: text(time.timeZone, 'UTC'),
    // The form counts whole minutes; a rule written through the API with odd seconds is rounded.
    evaluateMinutes: String(Math.max(1, Math.round(seconds / 60))),
    delayMinutes: String(rule.delayEvaluateAfterViolationMinutes ?? 0),
    channelIds: (rule.notificationChannels ?? []).map((channel) => channel.id),
  };
}

/** The body of a POST or PUT (a PUT replaces the rule, so it is always whole). */
export function alertRuleBody(values: AlertRuleFormValues): AlertRuleRequest {
  const templates = Object.fromEntries(
    TEMPLATE_FIELDS.map((field) => [TEMPLATE_ATTRIBUTES[field], values[field].trim() ? values[field] : null]),
  ) as Record<(typeof TEMPLATE_ATTRIBUTES)[TemplateField], string | null>;
  const common = {
    name: values.name.trim(),
    comment: values.comment,
    enabled: values.enabled,
    scheduledEvaluateSeconds: Number(values.evaluateMinutes) * 60,
    delayEvaluateAfterViolationMinutes: Number(values.delayMinutes),
    workingDays: { ...values.workingDays },
    workingTime: values.allDay
      ? { allDay: true, timeZone: wireTimeZone(values.timeZone) }
      : { allDay: false, from: values.from, end: values.end, timeZone: wireTimeZone(values.timeZone) },
    notificationChannels: values.channelIds.map((id) => ({ id })),
    ...templates,
  };
  if (values.type === 'DatasourceError') {
    return { '@type': 'DatasourceError', condition: { threshold: Number(values.threshold) }, ...common };
  }

  return {
    '@type': 'DeviceOffline',
    condition: {
      inactiveMinutes: Number(values.inactiveMinutes),
      deviceGroupId: values.deviceGroupId,
      recursive: values.recursive,
      excludeDeviceGroupIds: values.excludeDeviceGroupIds,
      excludeDeviceIds: values.excludeDeviceIds,
      tagFilter: values.tags.length
        ? { tags: values.tags, logicalOperator: values.tagOperator, tagFilterType: values.tagFilterType }
        : null,
    },
    ...common,
  };
}

/** A whole number typed in a field, within `min`..`max`. */
const wholeNumber = (words: Words, min: number, max: number) =>
  z.string().refine((value) => /^\d+$/.test(value.trim()) && Number(value) >= min && Number(value) <= max, {
    message: words('between', { min, max }),
  });

/** The form's checks: the module's limits in the console's words, and the rules between fields. */
export function alertRuleFormSchema(words: Words, { needsTeam }: { needsTeam: boolean }) {
  const template = z.string().max(TEMPLATE_MAX);

  return z
    .object({
      type: z.enum(alertRuleTypes),
      name: resourceName,
      comment: z.string().max(4_000),
      enabled: z.boolean(),
      inactiveMinutes: z.string(),
      deviceGroupId: z.string(),
      recursive: z.boolean(),
      excludeDeviceGroupIds: z.array(z.string()),
      excludeDeviceIds: z.array(z.string()),
      tags: z.array(z.string()),
      tagOperator: z.enum(['AND', 'OR']),
      tagFilterType: z.enum(['INCLUDE', 'EXCLUDE']),
      threshold: z.string(),
      workingDays: z.record(z.enum(dayNames), z.boolean()),
      allDay: z.boolean(),
      from: z.string(),
      end: z.string(),
      timeZone: z.string().min(1, words('chooseZone')),
      evaluateMinutes: wholeNumber(words, 1, MINUTES_PER_DAY),
      delayMinutes: wholeNumber(words, 0, MINUTES_PER_WEEK),
      channelIds: z.array(z.number()).max(CHANNELS_MAX, words('tooManyChannels', { max: CHANNELS_MAX })),
      teamIds: z.array(z.string()),
      emailSubject: template,
      emailBody: template,
      sms: template,
      fixedSms: template,
    })
    .superRefine((v, ctx) => {
      const issue = (path: keyof AlertRuleFormValues, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
      if (v.type === 'DeviceOffline') {
        if (!wholeNumber(words, 1, MINUTES_PER_YEAR).safeParse(v.inactiveMinutes).success)
          issue('inactiveMinutes', words('between', { min: 1, max: MINUTES_PER_YEAR }));
        if (!v.deviceGroupId) issue('deviceGroupId', words('chooseFolder'));
        if (v.excludeDeviceGroupIds.includes(v.deviceGroupId)) issue('excludeDeviceGroupIds', words('excludedWatched'));
      } else if (!wholeNumber(words, 1, THRESHOLD_MAX).safeParse(v.threshold).success) {
        issue('threshold', words('between', { min: 1, max: THRESHOLD_MAX }));
      }
      if (!dayNames.some((day) => v.workingDays[day])) issue('workingDays', words('chooseDay'));
      if (!v.allDay) {
        if (!HHMM.test(v.from)) issue('from', words('timeFormat'));
        if (!HHMM.test(v.end)) issue('end', words('timeFormat'));
        else if (HHMM.test(v.from) && v.end <= v.from) issue('end', words('endAfterFrom'));
      }
      if (needsTeam && v.teamIds.length === 0) issue('teamIds', words('teamRequired'));
    });
}

/** The condition's attributes that are form fields of the same name. */
const CONDITION_FIELDS = ['inactiveMinutes', 'deviceGroupId', 'excludeDeviceGroupIds', 'excludeDeviceIds', 'threshold'] as const;

/**
 * The form field a 400's issue path names (`condition.inactiveMinutes` → `inactiveMinutes`), so the API's message
 * shows under the control that sets it; undefined for a path no control sets.
 */
export function formFieldOfIssuePath(path: string): keyof AlertRuleFormValues | undefined {
  const [head, next] = path.split('.');
  switch (head) {
    case 'name':
    case 'comment':
    case 'enabled':
      return head;
    case '@type':
      return 'type';
    case 'condition':
      if (next === 'tagFilter') return 'tags';
      if (next === 'recursive') return 'deviceGroupId';

      return CONDITION_FIELDS.find((field) => field === next);
    case 'workingDays':
      return 'workingDays';
    case 'workingTime':
      return next === 'from' || next === 'end' || next === 'timeZone' ? next : 'from';
    case 'scheduledEvaluateSeconds':
      return 'evaluateMinutes';
    case 'delayEvaluateAfterViolationMinutes':
      return 'delayMinutes';
    case 'notificationChannels':
      return 'channelIds';
    default:
      return TEMPLATE_FIELDS.find((field) => TEMPLATE_ATTRIBUTES[field] === head);
  }
}
