import type { Executor } from '@/server/db/client';
import type { tagTypes } from './tags.table';

export type TagType = (typeof tagTypes)[number];

// CONTRACT (owned by the tags/quick-filters helper; replace the bodies, keep the signatures):

/** Validates tags against spec 3's format rules (throws ValidationError `tag.error.invalid`) and returns them de-duplicated. */
export function normalizeTags(tags: readonly string[]): string[] {
  return [...new Set(tags)];
}

/** Registers tags used on a row in the per-customer tag registry (insert, ignore existing), in the caller's transaction. */
export async function registerTags(_tx: Executor, _customerId: number, _tagType: TagType, _tags: readonly string[]): Promise<void> {}
