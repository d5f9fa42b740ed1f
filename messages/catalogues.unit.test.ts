import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { describe, expect, it } from 'vitest';
import de from './de';
import en from './en';

/** Every leaf of a catalogue by its dotted key. */
function leaves(tree: unknown, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree as Record<string, unknown>)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of leaves(value, path)) out.set(k, v);
  }

  return out;
}

/** The ICU arguments of a message (`{count}`, `{name}`, plural and select arguments, rich-text tags), sorted. */
function placeholders(message: string): string[] {
  const found = new Set<string>();
  const walk = (elements: MessageFormatElement[]) => {
    for (const element of elements) {
      if (element.type === TYPE.literal || element.type === TYPE.pound) continue;
      found.add(element.type === TYPE.tag ? `<${element.value}>` : element.value);
      if (element.type === TYPE.tag) walk(element.children);
      if (element.type === TYPE.plural || element.type === TYPE.select)
        for (const option of Object.values(element.options)) walk(option.value);
    }
  };
  walk(parse(message));

  return [...found].sort();
}

describe('message catalogues', () => {
  const english = leaves(en);
  const german = leaves(de);

  it('en and de have exactly the same keys', () => {
    expect([...german.keys()].sort()).toEqual([...english.keys()].sort());
  });

  it('each key has the same ICU placeholders in en and de', () => {
    const differing = [...english].filter(
      ([key, message]) => german.has(key) && placeholders(message).join() !== placeholders(german.get(key) as string).join(),
    );
    expect(differing.map(([key]) => key)).toEqual([]);
  });

  it('no message is empty', () => {
    expect([...english, ...german].filter(([, message]) => !message.trim()).map(([key]) => key)).toEqual([]);
  });
});
