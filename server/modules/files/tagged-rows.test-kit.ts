import type { Database } from '@/server/db/client';
import { insertFile as insertFileRow, insertFolder as insertFolderRow, rootFolderOf } from './files.test-kit';

/** Test data for the tag and quick-filter tests, in their argument shape, over the files module's test rows. */

export const rootFileFolder = rootFolderOf;

export function insertFolder(
  db: Database,
  input: { customerId: number; parent: { id: string; path: string[] }; name: string; quickFilterId?: string },
) {
  const filtered = input.quickFilterId ? { fileFolderType: 2, quickFilterId: input.quickFilterId } : {};

  return insertFolderRow(db, { ...input.parent, customerId: input.customerId }, input.name, filtered);
}

export function insertFile(
  db: Database,
  input: {
    customerId: number;
    folder: { id: string; path: string[] };
    name: string;
    tags?: string[];
    validFrom?: Date | null;
    validTo?: Date | null;
  },
) {
  const { customerId, folder, ...values } = input;

  return insertFileRow(db, { ...folder, customerId }, { size: 10, crcCheckSum: '00000000', ...values });
}
