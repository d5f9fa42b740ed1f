import type { DeletionCheck } from '@/lib/api/content';

/*
 * Which of the selected items can be deleted, and in which order. The API refuses to delete content that other
 * content embeds (409 `content.error.inUse`) and locked content (409 `content.error.locked`), and a read-only
 * team assignment refuses every change. An item embedded only by other selected items is deleted after them.
 */

export type BlockedItem = { item: DeletionCheck; reason: string };
export type DeletionPlan = { order: DeletionCheck[]; blocked: BlockedItem[] };

function names(list: string[]): string {
  const quoted = list.map((n) => `“${n}”`);

  return quoted.length > 3 ? `${quoted.slice(0, 3).join(', ')} and ${quoted.length - 3} more` : quoted.join(', ');
}

export function planDeletion(checks: readonly DeletionCheck[]): DeletionPlan {
  const blocked = new Map<string, string>();
  for (const item of checks) {
    if (item.locked) blocked.set(item.id, 'It is locked; an approver unlocks it first.');
    else if (item.readOnly) blocked.set(item.id, 'You may only read it (a read-only team assignment).');
  }
  // What embeds an item from outside the deletion keeps it; repeated, since keeping an item keeps what it embeds.
  for (let changed = true; changed; ) {
    changed = false;
    const deleting = new Set(checks.filter((c) => !blocked.has(c.id)).map((c) => c.id));
    for (const item of checks) {
      if (blocked.has(item.id)) continue;
      const keepers = (item.usageDetails ?? []).filter((u) => !u.id || !deleting.has(u.id));
      if (keepers.length === 0) continue;
      blocked.set(item.id, `It is embedded in ${names(keepers.map((u) => u.name ?? 'other content'))}; remove it there first.`);
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
