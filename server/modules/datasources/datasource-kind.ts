import type { DatasourceKind } from './datasources.schemas';
import type { DatasourceRow } from './datasources.table';

/** The kinds and settings of a stored (or about to be stored) row, as the kind rules read them. */
export function kindOf(row: DatasourceRow): DatasourceKind {
  const present = <T>(value: T | null): T | undefined => value ?? undefined;

  return {
    sourceType: row.sourceType as DatasourceKind['sourceType'],
    structureType: row.structureType as DatasourceKind['structureType'],
    type: row.type,
    systemDatasourceType: row.systemDatasourceType,
    editableByDisplay: row.editableByDisplay,
    remoteUrl: present(row.remoteUrl),
    requestSettings: present(row.requestSettings),
    refreshFrequency: row.sourceType === 'EXTERNAL' ? undefined : present(row.refreshFrequency),
    cronExpressionParameters: present(row.cronExpressionParameters),
    timeZone: present(row.timeZone),
    keepLastXDays: present(row.keepLastXDays),
    keepLastXItem: present(row.keepLastXItem),
    quickFilterId: present(row.quickFilterId),
    maxElementCount: present(row.maxElementCount),
    fileFolderId: present(row.fileFolderId),
    capParameters: present(row.capParameters),
    webScraperParameters: present(row.webScraperParameters),
  };
}
