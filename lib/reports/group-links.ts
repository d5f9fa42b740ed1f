import type { ReportRow } from '@/lib/reports/report-params';

/** The console page of what a report row is grouped by, where there is one (a deleted item's page answers "not found"). */
export function groupHref(group: ReportRow['groupBy']): string | null {
  if (group.id === null || group.id === undefined || group.id === '') return null;
  const id = encodeURIComponent(String(group.id));
  switch (group.type) {
    case 'DEVICE':
      return `/screens/${id}`;
    case 'DEVICE_GROUP':
      return `/screens?folder=${id}`;
    case 'CONTENT':
      return `/content/${id}`;
    case 'CAMPAIGN':
      return `/channels/${id}`;
    default:
      return null;
  }
}
