import { isPlainObject } from './storable';
import type { StructureType } from './types';

/** Why `document` does not fit the datasource's structureType (spec 5 §2), or undefined when it fits. */
export function structureProblem(structureType: StructureType, document: unknown): string | undefined {
  switch (structureType) {
    case 'KEY_VALUE':
      return isPlainObject(document) ? undefined : `A KEY_VALUE datasource holds a JSON object, not ${kind(document)}.`;
    case 'LIST':
      return Array.isArray(document) ? undefined : `A LIST datasource holds a JSON array, not ${kind(document)}.`;
    case 'TABLE':
      return tableProblem(document);
    case 'FEED':
      return feedProblem(document);
    case 'CUSTOM':
    case 'WAY_FINDING':
      return undefined;
  }
}

function tableProblem(document: unknown): string | undefined {
  if (!isPlainObject(document)) return `A TABLE datasource holds {columns, rows}, not ${kind(document)}.`;
  const { columns, rows } = document;
  if (!Array.isArray(columns)) return 'A TABLE needs "columns": a list of column names.';
  const seen = new Set<string>();
  for (const [index, column] of columns.entries()) {
    if (typeof column !== 'string') return `TABLE column ${index + 1} is ${kind(column)}, not a text.`;
    if (seen.has(column)) return `TABLE column "${column.slice(0, 80)}" appears twice.`;
    seen.add(column);
  }
  if (!Array.isArray(rows)) return 'A TABLE needs "rows": a list of objects keyed by column.';
  const badRow = rows.findIndex((row) => !isPlainObject(row));

  return badRow === -1 ? undefined : `TABLE row ${badRow + 1} is ${kind(rows[badRow])}, not an object.`;
}

function feedProblem(document: unknown): string | undefined {
  if (!isPlainObject(document)) return `A FEED datasource holds {items: [...]}, not ${kind(document)}.`;
  const { items } = document;
  if (!Array.isArray(items)) return 'A FEED needs "items": a list of feed items.';
  for (const [index, item] of items.entries()) {
    if (!isPlainObject(item)) return `FEED item ${index + 1} is ${kind(item)}, not an object.`;
    if (typeof item.id !== 'string') return `FEED item ${index + 1} needs an "id" text.`;
    if (typeof item.title !== 'string') return `FEED item ${index + 1} needs a "title" text.`;
  }

  return undefined;
}

function kind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return 'a text';
  if (typeof value === 'number') return 'a number';
  if (typeof value === 'boolean') return 'true/false';
  if (value === undefined) return 'nothing';

  return 'an object';
}
