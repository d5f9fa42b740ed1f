import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';

/*
 * What a German page must not show (item 15): a value of an English catalogue that differs from its German, or a
 * common English word (a string that never reached a catalogue). Text under `translate="no"` (names, e-mail
 * addresses, tenants, stored audit messages: what users typed or the server recorded) is not the console's words.
 */

function leaves(tree: unknown, prefix = ''): Array<[string, string]> {
  return Object.entries(tree as Record<string, unknown>).flatMap(([key, value]) =>
    typeof value === 'string' ? [[`${prefix}${key}`, value] as [string, string]] : leaves(value, `${prefix}${key}.`),
  );
}

/** English catalogue values that differ from their German, without ICU arguments or markup, by text. */
function englishCatalogue(): Map<string, string> {
  const dir = join(process.cwd(), 'messages');
  const out = new Map<string, string>();
  for (const file of readdirSync(join(dir, 'en')).filter((f) => f.endsWith('.json'))) {
    const area = file.replace(/\.json$/, '');
    const en = new Map(leaves(JSON.parse(readFileSync(join(dir, 'en', file), 'utf8'))));
    const de = new Map(leaves(JSON.parse(readFileSync(join(dir, 'de', file), 'utf8'))));
    for (const [key, value] of en) if (value !== de.get(key) && !/[{<]/.test(value)) out.set(value.trim(), `${area}.${key}`);
  }

  return out;
}

/**
 * Words of the console's English that German never uses. Words both languages share (Name, Status, Team, Tags, Online,
 * Playlist, Administrator, Start, Details, Minute) are not here.
 */
const ENGLISH_WORDS =
  /\b(the|and|of|to|your|with|for|from|is|are|this|that|not|no|yes|new|add|save|cancel|delete|remove|edit|show|all|none|never|screens?|channels?|schedules?|files?|folders?|users?|tenants?|settings|loading|search|upload|uploaded|plays?|played|choose|select|create|created|content|media|emergency|today|yesterday|week|month|hours?|minutes|days?|last|next|back|close|open)\b/i;

/** The trimmed visible text nodes and the accessible names, placeholders and titles of the page, outside `translate="no"`. */
async function visibleTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const kept = (element: Element) => !element.closest('script,style,[hidden],[translate="no"]');
    const texts: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      const text = node.textContent?.trim();
      if (!text || !parent || !kept(parent) || !parent.checkVisibility()) continue;
      texts.push(text);
    }
    for (const element of document.body.querySelectorAll('[aria-label],[placeholder],[title]')) {
      if (!kept(element)) continue;
      for (const attribute of ['aria-label', 'placeholder', 'title']) {
        const value = element.getAttribute(attribute)?.trim();
        if (value) texts.push(value);
      }
    }

    return texts;
  });
}

/**
 * The English on the page: catalogue values (with their keys) and, unless `words` is false, texts with an English
 * word. A page showing data other tests made (the super admin's, across every tenant) checks catalogue values only:
 * their names are English.
 */
export async function englishLeft(page: Page, { words = true }: { words?: boolean } = {}): Promise<string[]> {
  const catalogue = englishCatalogue();

  return [...new Set(await visibleTexts(page))].flatMap((text) => {
    const key = catalogue.get(text);
    if (key) return [`${key}: ${text}`];

    return words && ENGLISH_WORDS.test(text) ? [`(no key): ${text}`] : [];
  });
}
