import { describe, expect, it } from 'vitest';
import { ValidationError } from '@/server/errors';
import { isValidTag, normalizeTags } from './tags.rules';

describe('tag format rules (spec 3 "Tag")', () => {
  it('accepts letters of any script, digits and - _ # . "', () => {
    for (const tag of ['lobby', 'Floor-2', 'a_b', '#promo', 'v1.2', '"quoted"', 'café', 'Straße', '東京', '2026', 'x-']) {
      expect(isValidTag(tag), tag).toBe(true);
    }
  });

  it('refuses a leading dash or whitespace, other characters and the empty string', () => {
    for (const tag of ['', '-x', ' x', '\tx', 'a b', 'a,b', 'a/b', 'a@b', 'x ', 'a\nb', "it's"]) {
      expect(isValidTag(tag), JSON.stringify(tag)).toBe(false);
    }
  });

  it('de-duplicates and keeps the order', () => {
    expect(normalizeTags(['b', 'a', 'b'])).toEqual(['b', 'a']);
    expect(normalizeTags([])).toEqual([]);
  });

  it('throws tag.error.invalid naming the bad tag', () => {
    try {
      normalizeTags(['ok', '-bad']);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ValidationError);
      expect((err as ValidationError).key).toBe('tag.error.invalid');
      expect((err as ValidationError).details).toEqual({ tag: '-bad' });
      expect((err as ValidationError).message).toContain('-bad');
    }
  });

  it('limits the tags of one write to 2048 characters joined by commas', () => {
    expect(normalizeTags(['a'.repeat(2048)])).toHaveLength(1);
    expect(() => normalizeTags(['a'.repeat(2049)])).toThrow(ValidationError);
    expect(normalizeTags(['a'.repeat(1000), 'b'.repeat(1047)])).toHaveLength(2);
    expect(() => normalizeTags(['a'.repeat(1000), 'b'.repeat(1048)])).toThrow(ValidationError);
  });
});
