import { z, type RouteConfig } from '@hono/zod-openapi';
import { json, sortParamFor } from '@/server/http/list-query';
import { defineRoute } from '@/server/http/route';
import { INTEGER_ID_DOC } from '@/server/http/wire.schemas';
import { REPORT_CSV_COLUMNS, REPORT_SORT_DESCRIPTION, ReportQuerySchema, ReportSchema, reportSortFields } from './reports.schemas';
import type { ReportEntityType, ReportRequest } from './reports.service';

/*
 * The proof-of-display routes of spec 3 "Reporting", all VIEWER and tenant-scoped (DECISIONS §8: reads):
 * `/{type}/{id}` for device, content, campaign, file and message; `/{type}/all` for device, content, campaign
 * and file; `/{type}/dashboard/top/played` for content, campaign and file; each again with `/csv`.
 */

const BASE = '/api/v2/proof-of-display';
const tags = ['Reporting'];

/** The path parameter, sweep resource kind and wording of each entity type. */
const ENTITY: Record<ReportEntityType, { param: string; kind: string; noun: string; integer: boolean; title: string }> = {
  device: { param: 'deviceId', kind: 'device', noun: 'screen', integer: false, title: 'Device' },
  content: { param: 'contentId', kind: 'deviceContent', noun: 'content', integer: false, title: 'Content' },
  campaign: { param: 'campaignId', kind: 'campaign', noun: 'channel', integer: true, title: 'Campaign' },
  file: { param: 'fileId', kind: 'file', noun: 'media file', integer: false, title: 'File' },
  message: { param: 'messageId', kind: 'message', noun: 'sub-channel', integer: true, title: 'Message' },
};

const ROWS_NOTE =
  'Rows `{timestamp, readableDateTime, groupBy {type, id, name}, duration, impressionStartCount, impressionEndCount, clickCount, viewerCount, viewerAttention, viewerAttentionRatio, viewerAverageAttention}` ' +
  'per period (start in `timeZone`) and group, for plays started in the window (taken to whole quarter hours); sorted by timestamp then name unless `sort` says otherwise. ' +
  'A window over 3 months, a `timeZone` that is not IANA or `groupBy=WIDGET` is a 400.';

/** The report query with its `sort`, whose pattern names the row fields and directions. */
const query = ReportQuerySchema.extend({ sort: sortParamFor(reportSortFields, REPORT_SORT_DESCRIPTION) });

export type ReportRoute = {
  route: ReturnType<typeof reportRoute>;
  csv: boolean;
  request: Omit<ReportRequest, 'query' | 'id'>;
  param?: string;
};

function reportRoute(type: ReportEntityType, kind: ReportRequest['kind'], csv: boolean) {
  const e = ENTITY[type];
  const path = `${BASE}/${type}/${kind === 'single' ? `{${e.param}}` : kind === 'all' ? 'all' : 'dashboard/top/played'}${csv ? '/csv' : ''}`;
  const what =
    kind === 'single'
      ? `One ${e.noun}'s plays`
      : kind === 'all'
        ? `Plays of every ${e.noun}`
        : `Top played ${e.noun === 'content' ? 'content' : `${e.noun}s`}`;
  const params =
    kind === 'single'
      ? z.object({
          [e.param]: z
            .string()
            .max(64)
            .openapi({ param: { name: e.param, in: 'path' }, ...(e.integer ? INTEGER_ID_DOC : { format: 'uuid' }) }),
        })
      : undefined;
  const operationId = `proofOfDisplay${kind === 'single' ? e.title : kind === 'all' ? `All${e.title}` : `TopPlayed${e.title}`}${csv ? 'Csv' : ''}`;

  return defineRoute(
    { minRole: 'VIEWER', tenant: 'scoped' },
    {
      method: 'get',
      path,
      operationId,
      tags,
      summary: `${what}${csv ? ' (CSV)' : ''}`,
      description:
        `${kind === 'top' ? 'Rows by `impressionStartCount` descending (default `limit` 10, `resolution` TOTAL). ' : ''}` +
        `${kind === 'single' ? `A ${e.noun} of another customer, or one the caller's teams do not see, is a 404; a deleted one is reported under its last name. ` : ''}` +
        `${ROWS_NOTE}${csv ? ` CSV columns: ${REPORT_CSV_COLUMNS.join(', ')}; a header line, CRLF line ends.` : ''}`,
      request: params ? { query, params } : { query },
      responses: {
        // One declaration for both forms: the handler answers JSON or CSV by the route it serves.
        200: (csv
          ? { description: 'CSV attachment', content: { 'text/csv': { schema: z.string() } } }
          : { description: 'The report', ...json(ReportSchema) }) as RouteConfig['responses'][string],
      },
    },
    {
      resourceIds: {
        ...(kind === 'single' ? { [`path.${e.param}`]: e.kind } : {}),
        'query.deviceGroupId': 'deviceGroup',
        'query.advertiserId': 'advertiser',
      },
    },
  );
}

const kinds: [ReportEntityType, ReportRequest['kind']][] = [
  ...(['device', 'content', 'campaign', 'file', 'message'] as const).map((t): [ReportEntityType, ReportRequest['kind']] => [t, 'single']),
  ...(['device', 'content', 'campaign', 'file'] as const).map((t): [ReportEntityType, ReportRequest['kind']] => [t, 'all']),
  ...(['content', 'campaign', 'file'] as const).map((t): [ReportEntityType, ReportRequest['kind']] => [t, 'top']),
];

/** Every report route: JSON and CSV of each path. */
export const reportRoutes: ReportRoute[] = kinds.flatMap(([type, kind]) =>
  [false, true].map((csv) => ({
    route: reportRoute(type, kind, csv),
    csv,
    request: { type, kind },
    param: kind === 'single' ? ENTITY[type].param : undefined,
  })),
);
