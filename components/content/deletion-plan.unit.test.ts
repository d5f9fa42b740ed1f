import { describe, expect, it } from 'vitest';
import { planDeletion } from './deletion-plan';

const item = (id: string, extra: Record<string, unknown> = {}) => ({ id, name: id.toUpperCase(), deviceContentType: 'simpleLoop' as const, ...extra });

describe('planDeletion', () => {
  it('keeps locked, read-only and externally embedded items, and what only they embed', () => {
    const plan = planDeletion([
      item('a', { locked: true }),
      item('b', { readOnly: true }),
      item('c', { usageDetails: [{ id: 'x', name: 'Outside' }] }),
      item('d', { usageDetails: [{ id: 'a', name: 'A' }] }),
      item('e'),
    ]);
    expect(plan.order.map((i) => i.id)).toEqual(['e']);
    expect(Object.fromEntries(plan.blocked.map((b) => [b.item.id, b.reason]))).toEqual({
      a: 'It is locked; an approver unlocks it first.',
      b: 'You may only read it (a read-only team assignment).',
      c: 'It is embedded in “Outside”; remove it there first.',
      d: 'It is embedded in “A”; remove it there first.',
    });
  });

  it('deletes embedders before what they embed when both are selected', () => {
    const plan = planDeletion([item('inner', { usageDetails: [{ id: 'middle', name: 'M' }] }), item('middle', { usageDetails: [{ id: 'outer', name: 'O' }] }), item('outer')]);
    expect(plan.blocked).toEqual([]);
    expect(plan.order.map((i) => i.id)).toEqual(['outer', 'middle', 'inner']);
  });
});
