/* How the "Test" shows a data document: its lines as pretty JSON, and for a feed the titles of its first items. */

/** The document as indented JSON, one entry per line (`null` when there is none). */
export function documentLines(document: unknown): string[] {
  return (JSON.stringify(document ?? null, null, 2) ?? 'null').split('\n');
}

/** The titles of a FEED document's first `count` items (null for an item without one) and how many items it has. */
export function feedTitles(document: unknown, count: number): { titles: Array<string | null>; total: number } {
  const items = document && typeof document === 'object' && 'items' in document ? document.items : undefined;
  if (!Array.isArray(items)) return { titles: [], total: 0 };
  const titleOf = (item: unknown) =>
    item && typeof item === 'object' && 'title' in item && typeof item.title === 'string' && item.title.trim() ? item.title : null;

  return { titles: items.slice(0, count).map(titleOf), total: items.length };
}
