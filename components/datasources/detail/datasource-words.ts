'use client';

import { useTranslations } from 'next-intl';
import { useCallback } from 'react';
import { externalTypes, sourceTypes, structureTypes, systemTypes, type Datasource } from '@/server/modules/datasources/datasources.schemas';

/* How the console names a datasource's kinds; a value this console does not know yet shows as it is. */

const isOneOf = <T extends string>(values: readonly T[], value: string | null | undefined): value is T =>
  typeof value === 'string' && (values as readonly string[]).includes(value);

export function useStructureWord(): (structure: string | null | undefined) => string {
  const t = useTranslations('datasourceData.structures');

  return useCallback((structure) => (isOneOf(structureTypes, structure) ? t(structure) : (structure ?? '')), [t]);
}

/** "External · RSS", "Internal · Table", "System · Screens". */
export function useKindWords(): (datasource: Pick<Datasource, 'sourceType' | 'structureType' | 'type' | 'systemDatasourceType'>) => string {
  const t = useTranslations('datasourceData');
  const structureWord = useStructureWord();

  return useCallback(
    (d) => {
      const source = isOneOf(sourceTypes, d.sourceType) ? t(`sourceTypes.${d.sourceType}`) : (d.sourceType ?? '');
      const type = d.sourceType === 'SYSTEM' ? d.systemDatasourceType : d.sourceType === 'EXTERNAL' ? d.type : undefined;
      const detail =
        type === undefined || type === null
          ? structureWord(d.structureType)
          : isOneOf(externalTypes, type) || isOneOf(systemTypes, type)
            ? t(`types.${type}`)
            : type;

      return [source, detail].filter(Boolean).join(' · ');
    },
    [t, structureWord],
  );
}
