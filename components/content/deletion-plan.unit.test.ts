import { createTranslator } from 'next-intl';
import { describe, expect, it } from 'vitest';
import type { Translate } from '@/lib/i18n/translate';
import en from '@/messages/en';
import { blockedReasonText, planDeletion } from './deletion-plan';

const item = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: id.toUpperCase(),
  deviceContentType: 'simpleLoop' as const,
  ...extra,
});
const t = createTranslator({ locale: 'en', messages: en, namespace: 'content' }) as unknown as Translate<'content'>;

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
    expect(Object.fromEntries(plan.blocked.map((b) => [b.item.id, blockedReasonText(b.reason, t)]))).toEqual({
      a: 'It is locked; an approver unlocks it first.',
      b: 'You may only read it (a read-only team assignment).',
      c: 'It is embedded in “Outside”; remove it there first.',
      d: 'It is embedded in “A”; remove it there first.',
    });
  });

  it('names at most three embedders, and content it may not see as other content', () => {
    const by = ['One', 'Two', null, 'Four', 'Five'];
    expect(blockedReasonText({ kind: 'embedded', by }, t)).toBe(
      'It is embedded in “One”, “Two”, “other content” and 2 more; remove it there first.',
    );
  });

  it('deletes embedders before what they embed when both are selected', () => {
    const plan = planDeletion([
      item('inner', { usageDetails: [{ id: 'middle', name: 'M' }] }),
      item('middle', { usageDetails: [{ id: 'outer', name: 'O' }] }),
      item('outer'),
    ]);
    expect(plan.blocked).toEqual([]);
    expect(plan.order.map((i) => i.id)).toEqual(['outer', 'middle', 'inner']);
  });
});
