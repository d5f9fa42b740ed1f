import { describe, expect, it } from 'vitest';
import { sectionKeys } from '@/lib/ui-profile/rules';
import { NAV_ITEMS } from './nav-items';

describe('NAV_ITEMS', () => {
  // A UI profile hides an entry by its key; the profile editor lists only the keys it knows, so an entry whose key it
  // does not know could be hidden by a hand-written document but not from the editor.
  it('names, for every entry, a UI-profile element the profile editor offers with a label', () => {
    const offered = new Map(sectionKeys({}, 'newUi').map((element) => [`newUi.${element.key}`, element.label]));
    for (const item of NAV_ITEMS) {
      expect(item.uiElement, item.href).toMatch(/^newUi\.navigation\./);
      expect(offered.get(item.uiElement!), item.uiElement).toEqual(expect.any(String));
    }
  });
});
