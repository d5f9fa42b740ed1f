'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, apiDownload, ok } from '@/lib/api/client';
import { wireTimeZone } from '@/lib/time-zones';
import { useTenant } from '@/lib/tenant/tenant-context';
import { reportQuery, type ReportRequest, type TopPlayedKind } from '@/lib/reports/report-params';

export type { ReportRequest, ReportRow } from '@/lib/reports/report-params';

/**
 * Proof-of-play reports (spec 3 "Reporting", rows of spec 4 §5) for the tenant in view. The reports
 * need a `customerId`: the tenant chosen in the switcher, else the caller's own; under "All tenants" there
 * is none and the reads wait (`enabled` false) while the page asks for a tenant.
 */
export function useReportTenant(): number | undefined {
  return useTenant().tenant?.id;
}

const keys = {
  all: ['proofOfPlay'] as const,
  report: (customerId: number | undefined, request: ReportRequest) => ['proofOfPlay', 'report', { customerId, ...request }] as const,
  top: (customerId: number | undefined, kind: TopPlayedKind, request: Omit<ReportRequest, 'subject'>, limit: number) =>
    ['proofOfPlay', 'top', { customerId, kind, limit, ...request }] as const,
};

/** A report's query parameters: the range, zone, resolution and grouping, for the tenant. */
function reportParams(request: Omit<ReportRequest, 'subject'>, customerId: number) {
  return { ...reportQuery(request), timeZone: wireTimeZone(request.timeZone), customerId };
}

/** One report, by the operation of its subject: `/api/v2/proof-of-display/{type}/all` or `/{type}/{<type>Id}`. */
function readReport(request: ReportRequest, customerId: number, signal: AbortSignal) {
  const query = reportParams(request, customerId);
  const { type, id } = request.subject;
  const all = { params: { query }, signal };
  switch (type) {
    case 'device':
      return ok(
        id
          ? api.GET('/api/v2/proof-of-display/device/{deviceId}', { params: { path: { deviceId: id }, query }, signal })
          : api.GET('/api/v2/proof-of-display/device/all', all),
      );
    case 'content':
      return ok(
        id
          ? api.GET('/api/v2/proof-of-display/content/{contentId}', { params: { path: { contentId: id }, query }, signal })
          : api.GET('/api/v2/proof-of-display/content/all', all),
      );
    case 'campaign':
      return ok(
        id
          ? api.GET('/api/v2/proof-of-display/campaign/{campaignId}', { params: { path: { campaignId: Number(id) }, query }, signal })
          : api.GET('/api/v2/proof-of-display/campaign/all', all),
      );
    case 'file':
      return ok(
        id
          ? api.GET('/api/v2/proof-of-display/file/{fileId}', { params: { path: { fileId: id }, query }, signal })
          : api.GET('/api/v2/proof-of-display/file/all', all),
      );
    case 'message':
      // Messages are reported one at a time (there is no `message/all`).
      return ok(api.GET('/api/v2/proof-of-display/message/{messageId}', { params: { path: { messageId: Number(id) }, query }, signal }));
  }
}

/** One report: `/api/v2/proof-of-display/{type}/all|{id}` with the range, zone, resolution and grouping. */
export function useProofOfPlayReport(request: ReportRequest | null, options: { refetchInterval?: number } = {}) {
  const customerId = useReportTenant();

  return useQuery({
    queryKey: keys.report(customerId, request ?? ({} as ReportRequest)),
    queryFn: ({ signal }) => readReport(request!, customerId!, signal),
    enabled: request !== null && customerId !== undefined,
    placeholderData: keepPreviousData,
    refetchInterval: options.refetchInterval,
  });
}

/** The most played content, channels (campaigns) or files of the range: `/{kind}/dashboard/top/played?limit=`. */
export function useTopPlayed(kind: TopPlayedKind, request: Omit<ReportRequest, 'subject'>, limit: number) {
  const customerId = useReportTenant();

  return useQuery({
    queryKey: keys.top(customerId, kind, request, limit),
    queryFn: ({ signal }) => {
      const init = { params: { query: { ...reportParams(request, customerId!), limit } }, signal };
      switch (kind) {
        case 'content':
          return ok(api.GET('/api/v2/proof-of-display/content/dashboard/top/played', init));
        case 'campaign':
          return ok(api.GET('/api/v2/proof-of-display/campaign/dashboard/top/played', init));
        case 'file':
          return ok(api.GET('/api/v2/proof-of-display/file/dashboard/top/played', init));
      }
    },
    enabled: customerId !== undefined,
  });
}

/** The report's `/csv` variant, fetched with the session and saved as a file. */
export async function downloadReportCsv(request: ReportRequest, customerId: number): Promise<void> {
  const query = reportParams(request, customerId);
  const { type, id } = request.subject;
  const name = 'proof-of-play.csv';
  switch (type) {
    case 'device':
      return id
        ? apiDownload('/api/v2/proof-of-display/device/{deviceId}/csv', { path: { deviceId: id }, query }, name)
        : apiDownload('/api/v2/proof-of-display/device/all/csv', { query }, name);
    case 'content':
      return id
        ? apiDownload('/api/v2/proof-of-display/content/{contentId}/csv', { path: { contentId: id }, query }, name)
        : apiDownload('/api/v2/proof-of-display/content/all/csv', { query }, name);
    case 'campaign':
      return id
        ? apiDownload('/api/v2/proof-of-display/campaign/{campaignId}/csv', { path: { campaignId: Number(id) }, query }, name)
        : apiDownload('/api/v2/proof-of-display/campaign/all/csv', { query }, name);
    case 'file':
      return id
        ? apiDownload('/api/v2/proof-of-display/file/{fileId}/csv', { path: { fileId: id }, query }, name)
        : apiDownload('/api/v2/proof-of-display/file/all/csv', { query }, name);
    case 'message':
      return apiDownload('/api/v2/proof-of-display/message/{messageId}/csv', { path: { messageId: Number(id) }, query }, name);
  }
}
