import type { Executor } from '@/server/db/client';
import { definePlugPoint } from '@/server/plug-point';

/**
 * Kinds a content document points at that belong to modules above content (a slide's datasource widgets). Such a
 * module lists one target in its manifest; saving content asks it which of the named ids exist in the customer, and
 * the target locks those rows (`for key share`) until the save commits, so a delete refused while content uses the
 * row cannot slip between the check and the reference being written. Without a target every id is missing (404).
 */
export type ContentReferenceTarget = {
  /** The reference type in `content_reference` and the resource kind named in a 404. */
  type: 'datasource';
  existing: (tx: Executor, customerId: number, ids: readonly string[]) => Promise<Set<string>>;
};

export const contentReferenceTargets = definePlugPoint<ContentReferenceTarget>('contentReferenceTargets', (t) => t.type);
