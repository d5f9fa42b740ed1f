'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiDownload, apiFetch } from '@/lib/api/client';
import { useTenant } from '@/lib/tenant/tenant-context';
import { reportPath, reportQuery, type ReportRequest, type ReportResponse, type TopPlayedKind } from '@/lib/reports/report-params';

export type { ReportRequest, ReportResponse, ReportRow } from '@/lib/reports/report-params';

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

/** One report: `/api/v2/proof-of-display/{type}/all|{id}` with the range, zone, resolution and grouping. */
export function useProofOfPlayReport(request: ReportRequest | null, options: { refetchInterval?: number } = {}) {
  const customerId = useReportTenant();

  return useQuery({
    queryKey: keys.report(customerId, request ?? ({} as ReportRequest)),
    queryFn: ({ signal }) => apiFetch<ReportResponse>(reportPath(request!), { query: { ...reportQuery(request!), customerId }, signal }),
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
    queryFn: ({ signal }) =>
      apiFetch<ReportResponse>(`/api/v2/proof-of-display/${kind}/dashboard/top/played`, { query: { ...reportQuery(request), limit, customerId }, signal }),
    enabled: customerId !== undefined,
  });
}

/** The report's `/csv` variant, fetched with the session and saved as a file. */
export async function downloadReportCsv(request: ReportRequest, customerId: number): Promise<void> {
  await apiDownload(`${reportPath(request)}/csv`, { query: { ...reportQuery(request), customerId } }, 'proof-of-play.csv');
}
