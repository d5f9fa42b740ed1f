import { isRecord, valueText } from './data-shapes';

/*
 * The editors' working copies of an internal datasource's document (spec 5 §2 "Internal data": PUT /data replaces
 * it whole), pure so each rule is tested: a TABLE as columns and positional cells, a KEY_VALUE object as rows of
 * key and text, any other document as JSON text. Values the user did not touch keep their type.
 */

/**
 * A typed cell: a number when its text is exactly how that number is written (`42`, `-3.5`, `0.25`), so the table
 * sorts and formats it as one; anything else stays text, including `007`, `1e3`, ` 42` and `NaN` (a leading zero or
 * an exponent is usually a code, not an amount). A cell that held true or false keeps that type while it reads so.
 */
export function cellValue(text: string, previous?: unknown): string | number | boolean {
  // A true/false cell stays one while it reads true or false.
  if (typeof previous === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  const n = Number(text);

  return text !== '' && Number.isFinite(n) && String(n) === text ? n : text;
}

export type TableDraft = {
  columns: string[];
  /** Each row's values, by column position; `undefined`: the row has no such key. */
  rows: unknown[][];
  /** Each row's keys that are not columns (kept as they are: nothing shows them, nothing should lose them). */
  extras: Array<Record<string, unknown>>;
};

export function tableDraftOf(document: unknown): TableDraft {
  const columns = isRecord(document) && Array.isArray(document.columns) ? document.columns.filter((c) => typeof c === 'string') : [];
  const rows = isRecord(document) && Array.isArray(document.rows) ? document.rows.filter(isRecord) : [];

  return {
    columns: [...columns],
    rows: rows.map((row) => columns.map((c) => (Object.hasOwn(row, c) ? row[c] : undefined))),
    extras: rows.map((row) => Object.fromEntries(Object.entries(row).filter(([key]) => !columns.includes(key)))),
  };
}

export function tableDocumentOf(draft: TableDraft): { columns: string[]; rows: Array<Record<string, unknown>> } {
  return {
    columns: [...draft.columns],
    rows: draft.rows.map((cells, i) => {
      const row: Record<string, unknown> = { ...draft.extras[i] };
      draft.columns.forEach((column, j) => {
        if (cells[j] !== undefined) row[column] = cells[j];
      });

      return row;
    }),
  };
}

/** A new column's name: `Column N`, the first N not taken. */
export function freeColumnName(columns: readonly string[], base = 'Column'): string {
  for (let n = columns.length + 1; ; n++) if (!columns.includes(`${base} ${n}`)) return `${base} ${n}`;
}

export function addColumn(draft: TableDraft, name: string): TableDraft {
  return { ...draft, columns: [...draft.columns, name], rows: draft.rows.map((cells) => [...cells, undefined]) };
}

export function renameColumn(draft: TableDraft, index: number, name: string): TableDraft {
  return { ...draft, columns: draft.columns.map((c, i) => (i === index ? name : c)) };
}

/** Removes the column and its values from every row. */
export function removeColumn(draft: TableDraft, index: number): TableDraft {
  return {
    ...draft,
    columns: draft.columns.filter((_, i) => i !== index),
    rows: draft.rows.map((cells) => cells.filter((_, i) => i !== index)),
  };
}

export function addRow(draft: TableDraft): TableDraft {
  return { ...draft, rows: [...draft.rows, draft.columns.map(() => undefined)], extras: [...draft.extras, {}] };
}

export function removeRow(draft: TableDraft, index: number): TableDraft {
  return { ...draft, rows: draft.rows.filter((_, i) => i !== index), extras: draft.extras.filter((_, i) => i !== index) };
}

export function setCell(draft: TableDraft, row: number, column: number, text: string): TableDraft {
  return {
    ...draft,
    rows: draft.rows.map((cells, i) => (i === row ? cells.map((v, j) => (j === column ? cellValue(text, v) : v)) : cells)),
  };
}

/** A cell as the editor's field shows it (objects and `null` as JSON; the value keeps its type until edited). */
export const cellText = valueText;

export type NameProblem = 'empty' | 'duplicate';

/** Why a column or key name cannot be saved: empty, or the same as an earlier one. */
export function nameProblems(names: readonly string[]): Array<NameProblem | undefined> {
  return names.map((name, i) => (name.trim() === '' ? 'empty' : names.indexOf(name) !== i ? 'duplicate' : undefined));
}

export type KeyValueRow = { key: string; text: string; isJson: boolean };

/** Text values are edited as text; numbers, booleans, `null`, objects and arrays as JSON (the row's JSON switch on). */
export function keyValueRowsOf(document: unknown): KeyValueRow[] {
  return Object.entries(isRecord(document) ? document : {}).map(([key, value]) =>
    typeof value === 'string' ? { key, text: value, isJson: false } : { key, text: JSON.stringify(value) ?? 'null', isJson: true },
  );
}

export type KeyValueProblem = NameProblem | 'json';

export function keyValueProblems(rows: readonly KeyValueRow[]): Array<KeyValueProblem | undefined> {
  const names = nameProblems(rows.map((r) => r.key));

  return rows.map((row, i) => names[i] ?? (row.isJson && !parseJson(row.text).ok ? 'json' : undefined));
}

/** The object the rows make; only called when `keyValueProblems` found none. */
export function keyValueDocumentOf(rows: readonly KeyValueRow[]): Record<string, unknown> {
  const document: Record<string, unknown> = {};
  for (const row of rows) {
    const parsed = row.isJson ? parseJson(row.text) : undefined;
    // defineProperty: a key named `__proto__` is an own key of the document, as the server stores it.
    Object.defineProperty(document, row.key, {
      value: parsed?.ok ? parsed.value : row.text,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }

  return document;
}

export type ParsedJson = { ok: true; value: unknown } | { ok: false; message: string; line?: number; column?: number };

/** Line and column (1-based) of a character offset. */
function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lines = before.split('\n');

  return { line: lines.length, column: lines.at(-1)!.length + 1 };
}

/**
 * JSON text parsed, or where it breaks: the engine's message, and the line and column read from it (V8 names the
 * position, newer versions the line and column too; the end of the text when the input ended early).
 */
export function parseJson(text: string): ParsedJson {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const lineColumn = /\(line (\d+) column (\d+)\)/.exec(message);
    if (lineColumn) return { ok: false, message, line: Number(lineColumn[1]), column: Number(lineColumn[2]) };
    const position = /at position (\d+)/.exec(message);
    if (position) return { ok: false, message, ...lineAndColumn(text, Number(position[1])) };
    if (/end of (JSON )?(input|data)/i.test(message)) return { ok: false, message, ...lineAndColumn(text, text.length) };

    return { ok: false, message };
  }
}

/** Bytes of a document as the server counts them (its JSON, UTF-8). */
export function documentBytes(document: unknown): number {
  return new TextEncoder().encode(JSON.stringify(document) ?? '').length;
}
