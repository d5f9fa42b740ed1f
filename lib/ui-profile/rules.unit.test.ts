import { describe, expect, it } from 'vitest';
import { effectiveRule, explicitRule, flattenSection, isUiElementVisible, parseRulesJson, sectionKeys, setRule } from './rules';

describe('isUiElementVisible', () => {
  it('shows everything without a profile or a rule', () => {
    expect(isUiElementVisible(undefined, 'newUi.navigation.teams')).toBe(true);
    expect(isUiElementVisible(null, 'newUi.navigation.teams')).toBe(true);
    expect(isUiElementVisible({}, 'newUi.navigation.teams')).toBe(true);
    expect(isUiElementVisible({ version: 2, dashboard: { devices: false } }, 'newUi.navigation.teams')).toBe(true);
  });

  it('reads nested and dotted spellings alike', () => {
    expect(isUiElementVisible({ newUi: { navigation: { teams: false } } }, 'newUi.navigation.teams')).toBe(false);
    expect(isUiElementVisible({ newUi: { 'navigation.teams': false } }, 'newUi.navigation.teams')).toBe(false);
    expect(isUiElementVisible({ 'newUi.navigation.teams': false }, 'newUi.navigation.teams')).toBe(false);
    expect(isUiElementVisible({ newUi: { 'navigation.teams': false } }, 'newUi.navigation.users')).toBe(true);
  });

  it('inherits from the parent key; null and omitted inherit; the most specific boolean wins', () => {
    expect(isUiElementVisible({ newUi: { navigation: false } }, 'newUi.navigation.teams')).toBe(false);
    expect(isUiElementVisible({ newUi: false }, 'newUi.navigation.teams')).toBe(false);
    expect(isUiElementVisible({ newUi: { navigation: false, 'navigation.teams': null } }, 'newUi.navigation.teams')).toBe(false);
    expect(isUiElementVisible({ newUi: { navigation: false, 'navigation.overview': true } }, 'newUi.navigation.overview')).toBe(true);
    expect(isUiElementVisible({ newUi: { navigation: { teams: true } }, 'newUi.navigation': false }, 'newUi.navigation.teams')).toBe(true);
    expect(isUiElementVisible({ newUi: { navigation: { teams: null } } }, 'newUi.navigation.teams')).toBe(true);
  });

  it('ignores values that are not booleans', () => {
    expect(isUiElementVisible({ newUi: { navigation: { teams: 'no' } } }, 'newUi.navigation.teams')).toBe(true);
    expect(isUiElementVisible({ newUi: [false] }, 'newUi.navigation.teams')).toBe(true);
    expect(isUiElementVisible('newUi', 'newUi')).toBe(true);
  });
});

describe('explicitRule and effectiveRule', () => {
  const doc = { newUi: { navigation: false, 'navigation.users': true } };

  it('tells the written value from the inherited one', () => {
    expect(explicitRule(doc, 'newUi.navigation.teams')).toBeNull();
    expect(effectiveRule(doc, 'newUi.navigation.teams')).toBe(false);
    expect(explicitRule(doc, 'newUi.navigation.users')).toBe(true);
    expect(effectiveRule(doc, 'newUi.dashboard')).toBeNull();
  });
});

describe('setRule', () => {
  it('writes flat dotted keys, removes inherit and keeps other sections', () => {
    const start = { version: 2, legacy: { x: 1 }, newUi: { navigation: { teams: false, users: true } } };
    const hidden = setRule(start, 'newUi', 'navigation.settings', false);
    expect(hidden).toEqual({
      version: 2,
      legacy: { x: 1 },
      newUi: { 'navigation.teams': false, 'navigation.users': true, 'navigation.settings': false },
    });
    expect(start.newUi.navigation).toEqual({ teams: false, users: true });
    const inherited = setRule(setRule(hidden, 'newUi', 'navigation.teams', null), 'newUi', 'navigation.users', null);
    expect(inherited.newUi).toEqual({ 'navigation.settings': false });
    expect(setRule(inherited, 'newUi', 'navigation.settings', null)).toEqual({ version: 2, legacy: { x: 1 } });
  });

  it('keeps the meaning of the document it rewrites', () => {
    const doc = { newUi: { navigation: { teams: false, more: { deep: true } } } };
    const rewritten = setRule(doc, 'newUi', 'other', true);
    for (const key of ['newUi.navigation.teams', 'newUi.navigation.more.deep', 'newUi.navigation.users']) {
      expect(effectiveRule(rewritten, key)).toBe(effectiveRule(doc, key));
    }
  });
});

describe('flattenSection and sectionKeys', () => {
  it("unfolds nested objects and lists known keys first, then the document's own", () => {
    expect(flattenSection({ a: { b: false, c: {} }, d: null })).toEqual({ 'a.b': false, d: null });
    const keys = sectionKeys({ newUi: { zeta: false, navigation: { teams: false } }, dashboard: { devices: true, n: 3 } }, 'newUi').map(
      (k) => k.key,
    );
    expect(keys[0]).toBe('navigation');
    expect(keys).toContain('navigation.teams');
    expect(keys.at(-1)).toBe('zeta');
    expect(sectionKeys({ dashboard: { devices: true, n: 3 } }, 'dashboard').map((k) => k.key)).toEqual(['devices']);
  });
});

describe('parseRulesJson', () => {
  it('accepts objects only', () => {
    expect(parseRulesJson('{"newUi":{}}')).toEqual({ ok: true, doc: { newUi: {} } });
    expect(parseRulesJson('[1]').ok).toBe(false);
    expect(parseRulesJson('{').ok).toBe(false);
  });
});
