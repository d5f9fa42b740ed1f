import { z } from '@hono/zod-openapi';
import { clearable, orNull, updateBody } from '@/server/http/update-body';
import { epochMs, httpUrl, ianaTimeZone, intId, keyedRule, nonBlankText, resourceName, uuid } from '@/server/http/wire.schemas';
import { isCronExpression } from '@/server/modules/advertisers/advertisers.schemas';
import { tagListOf } from '@/server/modules/tags/tags.schemas';

/*
 * Wire shapes of datasources (spec 3 "Datasource" and "Datasources", spec 5 §2). No server imports beyond the
 * wire helpers: the console imports these for its forms and types.
 */

export const sourceTypes = ['INTERNAL', 'EXTERNAL', 'SYSTEM'] as const;
export const structureTypes = ['TABLE', 'CUSTOM', 'KEY_VALUE', 'LIST', 'FEED', 'WAY_FINDING'] as const;
/**
 * The external types this service fetches (spec 5 §2); any other `type` is refused (400
 * `datasource.error.unsupportedType`, naming it).
 */
export const externalTypes = ['JSON', 'XML', 'RSS', 'ICAL', 'CAP', 'WEBSITE_CONTENT', 'FILE_FROM_URL'] as const;
/** The system types computed when read; SCREENSHOT, AI_DATASOURCE and CALENDAR_MERGE are refused like other types. */
export const systemTypes = ['FILES', 'DEVICES'] as const;
export const capSeverities = ['Extreme', 'Severe', 'Moderate', 'Minor', 'Unknown'] as const;

export type SourceType = (typeof sourceTypes)[number];
export type StructureType = (typeof structureTypes)[number];
export type ExternalType = (typeof externalTypes)[number];
export type SystemType = (typeof systemTypes)[number];

/** The structure each type produces (spec 5 §2); JSON and XML documents take the structure the datasource names. */
export const STRUCTURE_OF_TYPE: Partial<Record<ExternalType | SystemType, StructureType>> = {
  RSS: 'FEED',
  CAP: 'FEED',
  ICAL: 'LIST',
  WEBSITE_CONTENT: 'KEY_VALUE',
  FILE_FROM_URL: 'KEY_VALUE',
  FILES: 'LIST',
  DEVICES: 'LIST',
};

export const MIN_REFRESH_SECONDS = 60;
const MAX_REFRESH_SECONDS = 31 * 86_400;
/** Refresh frequency of an external datasource that names neither a frequency nor a cron expression. */
export const DEFAULT_REFRESH_SECONDS = 300;
/** The largest data document (spec 5 §2 "Internal data"): bytes of its JSON. */
export const MAX_DOCUMENT_BYTES = 1024 * 1024;

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
const shortText = z.string().max(255);

/** What a reader below EDITOR reads instead of a request header's value. */
export const HIDDEN_HEADER_VALUE = '********';

export const RequestSettingsSchema = z
  .object({
    method: z.enum(['GET', 'POST']).default('GET'),
    headers: z
      .record(z.string().regex(HEADER_NAME), z.string().max(8_000))
      .optional()
      .refine((h) => !h || Object.keys(h).length <= 50, { message: 'At most 50 headers' })
      .openapi({
        description: `Sent with every request (e.g. an \`Authorization\` the remote needs); at most 50. They often carry credentials: reads answer the values to EDITOR and above, and \`${HIDDEN_HEADER_VALUE}\` to lower roles`,
      }),
    body: z.string().max(65_536).optional().openapi({ description: 'The body of a POST' }),
    jsonPath: z
      .string()
      .max(1_000)
      .optional()
      .openapi({ description: 'JSONPath (no script evaluation) selecting the document', example: '$.items' }),
  })
  .openapi('DatasourceRequestSettings');

const CronExpressionParametersSchema = z
  .object({
    cronExpression: z
      .string()
      .max(200)
      .refine(
        isCronExpression,
        keyedRule('datasource.error.invalidCron', 'A cron expression of 5 fields (minute hour day month weekday) or 6 (seconds first)'),
      )
      .openapi({ example: '0 6 * * 1-5' }),
    timeZone: ianaTimeZone,
  })
  .openapi('DatasourceCronExpressionParameters', {
    description: 'Refresh at these times in `timeZone` instead of every `refreshFrequency` seconds',
  });

const CapParametersSchema = z
  .object({
    areaFilter: shortText.optional().openapi({ description: 'Only alerts whose `areaDesc` contains this (any case)' }),
    minimumSeverity: z.enum(capSeverities).optional(),
  })
  .openapi('DatasourceCapParameters');

const WebScraperParametersSchema = z
  .object({
    selectors: z
      .array(
        z.object({
          name: nonBlankText(100),
          selector: nonBlankText(1_000).openapi({ description: 'A CSS selector; the first match counts' }),
          attribute: z.string().max(100).optional().openapi({ description: 'Take this attribute instead of the text' }),
        }),
      )
      .min(1)
      .max(50),
  })
  .openapi('DatasourceWebScraperParameters');

const refreshFrequency = z
  .number()
  .int()
  .min(MIN_REFRESH_SECONDS)
  .max(MAX_REFRESH_SECONDS)
  .openapi({
    description: `Seconds between refreshes of an external datasource (at least ${MIN_REFRESH_SECONDS}; default ${DEFAULT_REFRESH_SECONDS})`,
  });

/** The fields a datasource of each kind may carry (spec 3), shared by create, update and the "Test" call. */
const settingsShape = {
  comment: z.string().max(4_000).optional(),
  editableByDisplay: z.boolean().optional().openapi({
    description:
      'INTERNAL only: devices and anonymous callers may write it through `set`/`merge`, and calendar events through the public calendar endpoints',
  }),
  remoteUrl: httpUrl.optional().openapi({ description: 'External types: the address fetched (http or https; public addresses only)' }),
  requestSettings: RequestSettingsSchema.optional().openapi({ description: 'JSON and XML' }),
  refreshFrequency: refreshFrequency.optional(),
  cronExpressionParameters: CronExpressionParametersSchema.optional(),
  timeZone: ianaTimeZone.optional().openapi({ description: 'ICAL (required): the zone events are expanded and written in' }),
  dateFormat: z.string().max(50).optional(),
  timeFormat: z.string().max(50).optional(),
  keepLastXDays: z.number().int().min(1).max(3_650).optional().openapi({ description: 'RSS: keep items published in the last X days' }),
  keepLastXItem: z.number().int().min(1).max(10_000).optional().openapi({ description: 'RSS: keep the newest X items' }),
  quickFilterId: uuid.optional().openapi({ description: 'FILES (required): a FILE quick filter of the customer' }),
  maxElementCount: z
    .number()
    .int()
    .min(1)
    .max(1_000)
    .optional()
    .openapi({ description: 'FILES and DEVICES: at most this many elements (default 100)' }),
  fileFolderId: uuid.optional().openapi({
    description:
      'FILE_FROM_URL (required): the stored file folder of the customer the file is kept in (another tenant’s or an unknown folder: 404; a filtered folder: 409 `fileFolder.error.filtered`)',
  }),
  capParameters: CapParametersSchema.optional(),
  webScraperParameters: WebScraperParametersSchema.optional().openapi({ description: 'WEBSITE_CONTENT (required)' }),
  tags: tagListOf(500).optional().openapi({ description: 'Tags (type DATASOURCE, listed as `datasourceTags`); replaced as a whole' }),
};

type Settings = { [K in keyof typeof settingsShape]?: z.infer<(typeof settingsShape)[K]> };
/** What decides which fields a datasource needs: its kinds and the settings it has (create: the body; update: merged). */
export type DatasourceKind = Settings & {
  sourceType: SourceType;
  structureType: StructureType;
  type?: string | null;
  systemDatasourceType?: string | null;
};

type Issue = { path: string[]; message: string };

/**
 * The rules between fields (spec 3 "Datasources" POST, spec 5 §2): each external type's required fields, the
 * structure it produces, what only one kind may carry. Unsupported types are not checked here (the service
 * refuses them with a key of their own). Answers the issues; empty when the combination holds.
 */
export function kindIssues(d: DatasourceKind): Issue[] {
  const issues: Issue[] = [];
  const need = (field: keyof Settings, why: string) => {
    if (d[field] === undefined || d[field] === null) issues.push({ path: [field], message: `Required ${why}` });
  };
  const refuse = (field: keyof Settings | 'type' | 'systemDatasourceType', why: string) => {
    const value = (d as Record<string, unknown>)[field];
    if (value !== undefined && value !== null) issues.push({ path: [field], message: `Not allowed ${why}` });
  };
  if (d.sourceType === 'EXTERNAL') {
    if (!d.type) issues.push({ path: ['type'], message: 'Required for an EXTERNAL datasource' });
    need('remoteUrl', `for an EXTERNAL datasource of type ${d.type ?? '…'}`);
    refuse('systemDatasourceType', 'for an EXTERNAL datasource');
    if (d.type === 'ICAL') need('timeZone', 'for ICAL');
    if (d.type === 'FILE_FROM_URL') need('fileFolderId', 'for FILE_FROM_URL');
    if (d.type === 'WEBSITE_CONTENT') need('webScraperParameters', 'for WEBSITE_CONTENT');
    if (d.type !== 'JSON' && d.type !== 'XML') refuse('requestSettings', `for ${d.type} (JSON and XML only)`);
    if (d.type !== 'RSS') for (const f of ['keepLastXDays', 'keepLastXItem'] as const) refuse(f, `for ${d.type} (RSS only)`);
    if (d.type !== 'CAP') refuse('capParameters', `for ${d.type} (CAP only)`);
    if (d.type !== 'WEBSITE_CONTENT') refuse('webScraperParameters', `for ${d.type} (WEBSITE_CONTENT only)`);
    if (d.editableByDisplay) issues.push({ path: ['editableByDisplay'], message: 'Only an INTERNAL datasource is editable by displays' });
  } else {
    refuse('type', `for a ${d.sourceType} datasource`);
    for (const f of [
      'remoteUrl',
      'requestSettings',
      'refreshFrequency',
      'cronExpressionParameters',
      'capParameters',
      'webScraperParameters',
      'keepLastXDays',
      'keepLastXItem',
    ] as const)
      refuse(f, `for a ${d.sourceType} datasource (external types only)`);
  }
  if (d.sourceType === 'SYSTEM') {
    if (!d.systemDatasourceType) issues.push({ path: ['systemDatasourceType'], message: 'Required for a SYSTEM datasource' });
    if (d.systemDatasourceType === 'FILES') need('quickFilterId', 'for FILES');
    if (d.editableByDisplay) issues.push({ path: ['editableByDisplay'], message: 'Only an INTERNAL datasource is editable by displays' });
  } else {
    refuse('systemDatasourceType', `for a ${d.sourceType} datasource`);
  }
  if (d.systemDatasourceType !== 'FILES') refuse('quickFilterId', 'except for FILES');
  if (d.type !== 'FILE_FROM_URL') refuse('fileFolderId', 'except for FILE_FROM_URL');
  const typeKey = (d.sourceType === 'SYSTEM' ? d.systemDatasourceType : d.type) as ExternalType | SystemType | undefined;
  const structure = typeKey ? STRUCTURE_OF_TYPE[typeKey] : undefined;
  if (structure && structure !== d.structureType)
    issues.push({ path: ['structureType'], message: `A ${typeKey} datasource has structure ${structure}` });

  return issues;
}

const typeField = nonBlankText(64).openapi({
  description: `External format: ${externalTypes.join(', ')}; other types are refused (400 \`datasource.error.unsupportedType\`)`,
});
const systemTypeField = nonBlankText(64).openapi({
  description: `${systemTypes.join(' or ')}; other types are refused (400 \`datasource.error.unsupportedType\`)`,
});
const KIND_RULES =
  'EXTERNAL needs `type` and `remoteUrl` (ICAL also `timeZone`, FILE_FROM_URL `fileFolderId`, WEBSITE_CONTENT `webScraperParameters`); ' +
  'SYSTEM needs `systemDatasourceType` (FILES also `quickFilterId`). RSS and CAP have structure FEED, ICAL, FILES and DEVICES LIST, ' +
  'WEBSITE_CONTENT and FILE_FROM_URL KEY_VALUE. Type-specific fields are refused on other types (400 `request.error.invalidCombination`).';

export const DatasourceCreateSchema = z
  .object({
    name: resourceName.openapi({ description: 'Unique in the customer' }),
    sourceType: z.enum(sourceTypes),
    structureType: z.enum(structureTypes),
    type: typeField.optional(),
    systemDatasourceType: systemTypeField.optional(),
    global: z.boolean().optional().openapi({ description: 'ADMIN only' }),
    deactivated: z.boolean().optional(),
    ...settingsShape,
  })
  // The kind rules are the service's (after the referenced ids are found: another tenant's id is 404 first); forms run kindIssues.
  .openapi('DatasourceCreate', { description: KIND_RULES });

/** PUT /api/datasource/{id}: the metadata and settings; the kinds (`sourceType`, `structureType`, `type`) are fixed at creation. */
export const DatasourceUpdateSchema = updateBody(
  'DatasourceUpdate',
  {
    name: resourceName,
    comment: z.string().max(4_000),
    deactivated: z
      .boolean()
      .openapi({ description: 'false reactivates a deactivated datasource: its error counter starts again at 0 and it refreshes at once' }),
    editableByDisplay: z.boolean(),
    global: z.boolean().openapi({ description: 'ADMIN only' }),
    remoteUrl: httpUrl,
    requestSettings: RequestSettingsSchema,
    refreshFrequency,
    cronExpressionParameters: clearable(CronExpressionParametersSchema, 'Send "" to go back to `refreshFrequency`'),
    timeZone: ianaTimeZone,
    dateFormat: z.string().max(50),
    timeFormat: z.string().max(50),
    keepLastXDays: clearable(z.number().int().min(1).max(3_650)),
    keepLastXItem: clearable(z.number().int().min(1).max(10_000)),
    quickFilterId: uuid,
    maxElementCount: z.number().int().min(1).max(1_000),
    fileFolderId: uuid,
    capParameters: CapParametersSchema,
    webScraperParameters: WebScraperParametersSchema,
    tags: tagListOf(500),
  },
  `The kinds are fixed at creation; the fields afterwards must fit them. ${KIND_RULES}`,
);

export const DatasourceSchema = z
  .object({
    id: uuid,
    name: z.string().optional(),
    customerId: intId.optional(),
    comment: z.string().optional(),
    sourceType: z.enum(sourceTypes).optional(),
    structureType: z.enum(structureTypes).optional(),
    type: z.string().nullable().optional(),
    systemDatasourceType: z.string().nullable().optional(),
    global: z.boolean().optional(),
    deactivated: z.boolean().optional(),
    editableByDisplay: z.boolean().optional(),
    remoteUrl: z.string().nullable().optional(),
    requestSettings: orNull(RequestSettingsSchema).optional(),
    refreshFrequency: z.number().int().nullable().optional(),
    cronExpressionParameters: z.object({ cronExpression: z.string(), timeZone: z.string() }).nullable().optional(),
    nextRefreshTime: epochMs.nullable().optional().openapi({ description: 'When the next refresh is due (external, not deactivated)' }),
    lastUpdated: epochMs.nullable().optional().openapi({ description: 'When the data last changed' }),
    lastRefreshTime: epochMs.nullable().optional().openapi({ description: 'When the last refresh ended, successful or not' }),
    errorCounter: z.number().int().optional().openapi({ description: 'Consecutive failed refreshes; at 25 the datasource is deactivated' }),
    lastError: z.string().nullable().optional().openapi({ description: 'Why the last refresh failed (null after a success)' }),
    timeZone: z.string().nullable().optional(),
    dateFormat: z.string().nullable().optional(),
    timeFormat: z.string().nullable().optional(),
    keepLastXDays: z.number().int().nullable().optional(),
    keepLastXItem: z.number().int().nullable().optional(),
    quickFilterId: z.string().nullable().optional(),
    maxElementCount: z.number().int().nullable().optional(),
    fileFolderId: z.string().nullable().optional(),
    capParameters: orNull(CapParametersSchema).optional(),
    webScraperParameters: orNull(WebScraperParametersSchema).optional(),
    tags: z.array(z.string()).optional(),
    dataSize: z
      .number()
      .int()
      .optional()
      .openapi({ description: 'Bytes of the stored document (counted in the customer’s datasource storage)' }),
    createdDate: epochMs.optional(),
    readOnly: z.boolean().optional().openapi({ description: 'The caller sees the datasource only through read-only team assignments' }),
    teamAssignments: z
      .array(z.record(z.string(), z.unknown()))
      .optional()
      .openapi({ description: 'select-only: the teams of the datasource' }),
    usageDetails: z
      .array(DatasourceUsageSchemaBase())
      .optional()
      .openapi({ description: 'select-only: the content that uses the datasource, with the widgets that show it' }),
  })
  .openapi('Datasource');

function DatasourceUsageSchemaBase() {
  return z.object({
    contentId: uuid,
    contentName: z.string(),
    deviceContentType: z.string(),
    widgets: z.array(z.object({ page: z.string(), widgetId: z.string(), widgetName: z.string().nullable() })),
  });
}

export const DatasourceUsageSchema = z
  .object({
    content: z.array(DatasourceUsageSchemaBase().extend({ datasourceId: uuid, datasourceName: z.string() }).openapi('DatasourceUsage')),
  })
  .openapi('DatasourceUsageList');

/** Any JSON document (spec 5 §2 "Data documents"); its shape is checked against the datasource's structure. */
export const DataDocumentSchema = z.unknown().openapi('DatasourceDocument', {
  description:
    'KEY_VALUE: an object; LIST: an array; TABLE: `{columns, rows}`; FEED: `{title?, items}`; CUSTOM, WAY_FINDING: any JSON. At most 1 MiB. ' +
    'FILE_FROM_URL (KEY_VALUE) names its current file: `{fileId, name, contentType, size, width, height, crcCheckSum, sha256, url, updated}` ' +
    '(`url` the download path `/api/storage/customer/{customerId}/files/{fileId}`, `width`/`height` null when unknown, `updated` when this ' +
    'file was stored, epoch ms); `{}` until the first successful refresh. A changed remote gives a new file (a new `fileId`) in the same folder.',
});

export type Datasource = z.infer<typeof DatasourceSchema>;
export type DatasourceCreate = z.infer<typeof DatasourceCreateSchema>;
export type DatasourceUpdate = z.infer<typeof DatasourceUpdateSchema>;
export type DatasourceUsageList = z.infer<typeof DatasourceUsageSchema>;

export const DatasourceTestResultSchema = z
  .object({
    ok: z.boolean(),
    document: z.unknown().optional().openapi({ description: 'When ok: what the datasource would hold' }),
    error: z.string().optional().openapi({ description: 'When not ok: why, in words a person can act on' }),
  })
  .openapi('DatasourceTestResult');
export type DatasourceTestResult = z.infer<typeof DatasourceTestResultSchema>;
