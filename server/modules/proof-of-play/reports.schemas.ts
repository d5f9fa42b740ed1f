import { z } from '@hono/zod-openapi';
import { EPOCH_MS_DOC, epochMs, ianaTimeZone, intId, INTEGER_ID_DOC } from '@/server/http/wire.schemas';
import { reportResolutions } from './report-periods';

/*
 * Wire shapes of the proof-of-display reports (spec 3 "Reporting", spec 4 §5). Query values arrive as strings
 * and are checked by the service after the entity lookup (an unknown entity is a 404 whatever else is wrong),
 * but `timeZone`, which the shared `TimeZone` schema checks in the route (a 400 before the lookup).
 */

export const reportGroupings = [
  'ADVERTISER',
  'ASSET',
  'CAMPAIGN',
  'CONTENT',
  'CONTENT_PAGE',
  'DEVICE',
  'DEVICE_GROUP',
  'MEDIA_FILE',
  'MESSAGE',
  'WIDGET',
] as const;
export type ReportGrouping = (typeof reportGroupings)[number];

/** The sortable row fields (`sort=field,asc|desc`). */
export const reportSortFields = [
  'timestamp',
  'name',
  'duration',
  'impressionStartCount',
  'impressionEndCount',
  'clickCount',
  'viewerCount',
  'viewerAttention',
] as const;
export type ReportSortField = (typeof reportSortFields)[number];

/** Rows a report answers at most (and by default); top played defaults to 10. */
export const REPORT_MAX_ROWS = 100_000;
export const REPORT_DEFAULT_ROWS = 10_000;
export const TOP_PLAYED_DEFAULT_ROWS = 10;

// Checked by the service after the entity (a 404 comes first, whatever else is wrong); the document states the rules.
const digits = (description: string, doc: typeof INTEGER_ID_DOC | typeof EPOCH_MS_DOC) =>
  z
    .string()
    .max(20)
    .openapi({ ...doc, description });

export const ReportQuerySchema = z.object({
  customerId: digits('The customer whose plays are reported (required; the tenant selector of spec 1)', INTEGER_ID_DOC),
  from: digits('Start of the window, Unix epoch ms (required); taken down to the quarter hour', EPOCH_MS_DOC),
  to: digits(
    'End of the window, Unix epoch ms (default now); taken up to the quarter hour. Not before `from`, at most 3 months after it',
    EPOCH_MS_DOC,
  ).optional(),
  timeZone: ianaTimeZone.openapi({ description: 'IANA time zone the periods are cut in (required)' }),
  resolution: z
    .string()
    .max(16)
    .optional()
    .openapi({ type: 'string', enum: [...reportResolutions], description: 'Period length (default DAILY; TOTAL for top played)' }),
  groupBy: z
    .string()
    .max(16)
    .optional()
    .openapi({
      type: 'string',
      enum: [...reportGroupings],
      description:
        'What each row counts (default: the entity type of the path). ASSET: the item shown (its file, else its content). WIDGET: the slide widget that showed it (`widgetKey` of the plays: id and name the key); plays without one form the row "(whole page)", id `""`.',
    }),
  search: z.string().max(200).optional().openapi({ description: 'Rows whose group name contains this text (case-insensitive)' }),
  deviceGroupId: z.string().max(64).optional().openapi({
    format: 'uuid',
    description:
      'Extension: only plays on screens that were in this device folder or a folder below it (as the folders are now) when they played',
  }),
  advertiserId: z
    .string()
    .max(64)
    .optional()
    .openapi({ format: 'uuid', description: "Extension: only plays of this advertiser's channels" }),
  limit: z
    .string()
    .max(10)
    .optional()
    .openapi({
      type: 'integer',
      minimum: 1,
      maximum: REPORT_MAX_ROWS,
      description: `At most this many rows (default ${REPORT_DEFAULT_ROWS}, top played ${TOP_PLAYED_DEFAULT_ROWS}; at most ${REPORT_MAX_ROWS})`,
    }),
});
/** `sort` of a report: `field,asc|desc`, repeatable; declared by the routes with the query language's pattern (server/http/list-query.ts). */
export const REPORT_SORT_DESCRIPTION = `\`field,asc|desc\` (direction in any case), repeatable; fields ${reportSortFields.join(', ')}. Default timestamp then name (top played: impressionStartCount desc)`;
export type ReportQuery = z.infer<typeof ReportQuerySchema> & { sort?: string | string[] };

const ReportRowSchema = z
  .object({
    timestamp: epochMs.openapi({ description: "Start of the row's period in `timeZone`, epoch ms (TOTAL: `from`)" }),
    readableDateTime: z.string().openapi({ description: 'That start, `yyyy-MM-dd HH:mm` in `timeZone`' }),
    groupBy: z.object({
      type: z.enum(reportGroupings),
      id: z.union([z.string(), intId]).openapi({
        description:
          'Campaign and message ids are numbers; the rest UUIDs; CONTENT_PAGE `<contentId>/<pageId>`; WIDGET the widget key (`""` for the whole page)',
      }),
      name: z.string().openapi({ description: 'The last known name (kept after deletes)' }),
    }),
    duration: z.number().int().openapi({ description: 'Play time of the plays started in the period, ms' }),
    impressionStartCount: z.number().int().openapi({ description: 'Plays started in the period' }),
    impressionEndCount: z.number().int().openapi({ description: 'Of those, plays that completed' }),
    clickCount: z.number().int(),
    viewerCount: z.number().int(),
    viewerAttention: z.number().int().openapi({ description: 'ms' }),
    viewerAttentionRatio: z.number().openapi({ description: 'viewerAttention / duration (0 without play time)' }),
    viewerAverageAttention: z.number().openapi({ description: 'viewerAttention / viewerCount, ms (0 without viewers)' }),
  })
  .openapi('ProofOfDisplayRow');
export type ReportRow = z.infer<typeof ReportRowSchema>;

export const ReportSchema = z
  .object({
    from: epochMs,
    to: epochMs,
    timeZone: z.string(),
    resolution: z.enum(reportResolutions),
    groupBy: z.enum(reportGroupings),
    rows: z.array(ReportRowSchema),
  })
  .openapi('ProofOfDisplayReport');
export type Report = z.infer<typeof ReportSchema>;

/** The CSV columns, in order (groupBy flattened). */
export const REPORT_CSV_COLUMNS = [
  'timestamp',
  'readableDateTime',
  'groupByType',
  'groupById',
  'groupByName',
  'duration',
  'impressionStartCount',
  'impressionEndCount',
  'clickCount',
  'viewerCount',
  'viewerAttention',
  'viewerAttentionRatio',
  'viewerAverageAttention',
] as const;
