import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { documentResolver, type JsonSchema, type RefResolver } from './json-schema';

/**
 * The contract's judge: a JSON Schema 2020-12 validator (Ajv, what OpenAPI 3.1 uses) over the document's
 * own schemas. Whether a request is valid is decided here from what was actually sent, never from what
 * the generator meant to send.
 */

export type Verdict =
  | { valid: true }
  | { valid: false; path: string; keyword: string; message: string }
  /** The schema cannot be judged (a `$ref` that does not resolve). */
  | { valid: 'unknown'; reason: string };

const DOCUMENT_ID = 'https://contract.test/openapi.json';

export class SchemaValidator {
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction | Error>();
  /** Resolves the document's `$ref`s (the same document the validator reads). */
  readonly resolve: RefResolver;

  constructor(document: { components?: unknown }) {
    this.resolve = documentResolver(document);
    this.ajv = new Ajv2020({ strict: false, allErrors: false, logger: false, unicodeRegExp: true });
    // Full: dates are checked day by day (2026-02-31 is no date), e-mails and URIs by their RFCs.
    addFormats(this.ajv, { mode: 'full' });
    this.ajv.addSchema({ $id: DOCUMENT_ID, components: document.components ?? {} });
  }

  /** Whether `value` is valid against `schema` (a schema of the document: its `$ref`s point into it). */
  validate(schema: JsonSchema, value: unknown): Verdict {
    const validator = this.compile(schema);
    if (validator instanceof Error) return { valid: 'unknown', reason: validator.message };
    if (validator(value)) return { valid: true };
    const error = (validator.errors ?? [])[0] as ErrorObject | undefined;

    return { valid: false, path: error?.instancePath ?? '', keyword: error?.keyword ?? 'unknown', message: error?.message ?? 'invalid' };
  }

  /**
   * Whether a parameter's wire value is valid against its schema: a query, path or header value is text,
   * read as the schema's type (OpenAPI `style: form`/`simple`): the text is valid when one reading of it
   * is (`"12"` as the string or the integer 12, `"true"` as the boolean). Several values of one name
   * (`?a=1&a=2`) are read as an array.
   */
  validateWire(schema: JsonSchema, raw: readonly string[]): Verdict {
    if (raw.length === 1) {
      let last: Verdict = { valid: false, path: '', keyword: 'type', message: 'no reading' };
      for (const reading of readings(raw[0]!)) {
        last = this.validate(schema, reading);
        if (last.valid !== false) return last;
      }
      const asList = this.validate(schema, [raw[0]]);

      return asList.valid === true ? asList : last;
    }
    // Each item as its own most fitting reading: the array is valid when some choice is.
    const items = raw.map((text) => readings(text));
    const choices = items
      .reduce<unknown[][]>((acc, options) => acc.flatMap((prefix) => options.map((option) => [...prefix, option])), [[]])
      .slice(0, 64);
    let last: Verdict = { valid: false, path: '', keyword: 'type', message: 'no reading' };
    for (const choice of choices) {
      last = this.validate(schema, choice);
      if (last.valid !== false) return last;
    }

    return last;
  }

  private compile(schema: JsonSchema): ValidateFunction | Error {
    const key = JSON.stringify(schema);
    let validator = this.compiled.get(key);
    if (!validator) {
      try {
        validator = this.ajv.compile(anchored(schema));
      } catch (error) {
        validator = error instanceof Error ? error : new Error(String(error));
      }
      this.compiled.set(key, validator);
    }

    return validator;
  }
}

/** The text itself, and the number or boolean it spells when it spells one (JSON's number grammar). */
export function readings(text: string): unknown[] {
  const out: unknown[] = [text];
  if (/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(text)) {
    const number = Number(text);
    if (Number.isFinite(number)) out.push(number);
  }
  if (text === 'true' || text === 'false') out.push(text === 'true');

  return out;
}

/** The schema with its local `$ref`s pointed at the document added to the validator. */
function anchored(schema: JsonSchema): JsonSchema {
  return JSON.parse(JSON.stringify(schema), (key, value) =>
    key === '$ref' && typeof value === 'string' && value.startsWith('#/') ? `${DOCUMENT_ID}${value}` : value,
  ) as JsonSchema;
}
