/*
 * CSV as the exports write it (RFC 4180): a header line, CRLF line ends, a field quoted when it holds a comma,
 * quote, CR or LF, quotes inside doubled. Exports of any size are streamed in batches read as the client
 * consumes them (keyset paging), so one batch at a time is in memory. Every CSV the service writes goes
 * through `csvLine`, which neutralises formulas (below).
 */

/**
 * Text a spreadsheet would read as a formula (or, for tab and CR, after its own trimming): the first characters
 * OWASP lists for CSV injection.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One field: empty for null, ISO-8601 for a date, quoted when needed. Text that starts like a formula is
 * prefixed with a single quote (OWASP "CSV Injection"), so a name such as `=HYPERLINK(...)` opens as text;
 * numbers (and bigints) are written as they are, so a negative number stays a number.
 */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  const raw = value instanceof Date ? value.toISOString() : String(value);
  const text = FORMULA_START.test(raw) ? `'${raw}` : raw;

  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One line of fields, CRLF-terminated. */
export function csvLine(values: readonly unknown[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

/**
 * A CSV stream: the header line, then the lines of each batch `next` reads after the previous batch's last
 * row, until a batch is shorter than `batchSize`. The first batch is read before the answer starts, so a query
 * that fails (a bad filter value, the database away) is answered as that error, not as a cut-off file.
 */
export async function csvStream<R>(
  header: readonly string[],
  batchSize: number,
  next: (after: R | undefined) => Promise<readonly R[]>,
  line: (row: R) => string,
): Promise<ReadableStream<Uint8Array>> {
  const encoder = new TextEncoder();
  let pending: readonly R[] | undefined = await next(undefined);
  let last: R | undefined;

  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode(csvLine(header)));
      },
      async pull(controller) {
        const rows = pending ?? (await next(last));
        pending = undefined;
        if (rows.length > 0) {
          last = rows[rows.length - 1];
          controller.enqueue(encoder.encode(rows.map(line).join('')));
        }
        if (rows.length < batchSize) controller.close();
      },
    },
    { highWaterMark: 1 },
  );
}
