import type { DeletionCheck } from '@/lib/api/content';
import type { Translate } from '@/lib/i18n/translate';

/*
 * Which of the selected items can be deleted, and in which order. The API refuses to delete content that other
 * content embeds (409 `content.error.inUse`) and locked content (409 `content.error.locked`), and a read-only
 * team assignment refuses every change. An item embedded only by other selected items is deleted after them.
 */

/** Why an item is kept: locked, read-only, or embedded in other content (by name; null: a name the caller may not see). */
export type BlockedReason = { kind: 'locked' } | { kind: 'readOnly' } | { kind: 'embedded'; by: Array<string | null> };
type BlockedItem = { item: DeletionCheck; reason: BlockedReason };
export type DeletionPlan = { order: DeletionCheck[]; blocked: BlockedItem[] };

/** A reason in words: "It is embedded in “A”, “B”, “C” and 2 more; remove it there first." */
export function blockedReasonText(reason: BlockedReason, t: Translate<'content'>): string {
  if (reason.kind !== 'embedded') return t(`blocked.${reason.kind}`);
  const quoted = reason.by.map((name) => t('quoted', { name: name ?? t('blocked.otherContent') }));

  return t('blocked.embedded', { names: quoted.slice(0, 3).join(', '), more: Math.max(0, quoted.length - 3) });
}

export function planDeletion(checks: readonly DeletionCheck[]): DeletionPlan {
  const blocked = new Map<string, BlockedReason>();
  for (const item of checks) {
    if (item.locked) blocked.set(item.id, { kind: 'locked' });
    else if (item.readOnly) blocked.set(item.id, { kind: 'readOnly' });
  }
  // What embeds an item from outside the deletion keeps it; repeated, since keeping an item keeps what it embeds.
  for (let changed = true; changed;) {
    changed = false;
    const deleting = new Set(checks.filter((c) => !blocked.has(c.id)).map((c) => c.id));
    for (const item of checks) {
      if (blocked.has(item.id)) continue;
      const keepers = (item.usageDetails ?? []).filter((u) => !u.id || !deleting.has(u.id));
      if (keepers.length === 0) continue;
      blocked.set(item.id, { kind: 'embedded', by: keepers.map((u) => u.name ?? null) });
      changed = true;
    }
  }

  // Embedders first: an item goes once every selected item that embeds it has gone.
  const remaining = checks.filter((c) => !blocked.has(c.id));
  const order: DeletionCheck[] = [];
  const gone = new Set<string>();
  while (remaining.length > 0) {
    const next = remaining.findIndex((item) => (item.usageDetails ?? []).every((u) => !u.id || gone.has(u.id) || u.id === item.id));
    // A cycle cannot be saved (the API refuses it); should one exist, the API's answer names it.
    const [item] = remaining.splice(next === -1 ? 0 : next, 1);
    order.push(item!);
    gone.add(item!.id);
  }

  return { order, blocked: checks.filter((c) => blocked.has(c.id)).map((item) => ({ item, reason: blocked.get(item.id)! })) };
}
