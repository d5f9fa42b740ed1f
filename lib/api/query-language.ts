/**
 * Builds `search` expressions of the service query language (spec 1 "Filter parameter"). Each value is
 * URL-encoded here once; the API client encodes the whole parameter again when it builds the URL.
 */
export type Operator = ':' | '=' | '≠' | '∉' | '^' | '>' | '≥' | '<' | '≤' | '∈' | '~';

/**
 * The spec's operators are case-sensitive (`:` contains, `^` starts with). What a person types into a
 * search box is matched with the service's extension `~`: contains, ignoring case.
 */
export const CONTAINS_IGNORING_CASE = '~' satisfies Operator;

export type Expr = { readonly kind: 'term' | 'and' | 'or'; readonly text: string };

/** Keywords are written unencoded; `=NULL` is not the same as the string "NULL". */
export type Keyword = { readonly keyword: 'NULL' | '!NULL' | 'true' | 'false' };
export const NULL: Keyword = { keyword: 'NULL' };
export const NOT_NULL: Keyword = { keyword: '!NULL' };

export type TermValue = string | number | boolean | Date | Keyword | ReadonlyArray<string | number>;

/** Like encodeURIComponent, but also escapes the characters it leaves alone that the language uses: ( ) ! * ' */
export function encodeValue(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function valueText(value: TermValue): string {
  if (typeof value === 'object' && value !== null && 'keyword' in value) return value.keyword;
  if (value instanceof Date) return String(value.getTime());
  if (Array.isArray(value)) return encodeValue(value.map(String).join(','));
  if (typeof value === 'boolean') return String(value);

  return encodeValue(String(value));
}

export function term(field: string, operator: Operator, value: TermValue): Expr {
  return { kind: 'term', text: `${field}${operator}${valueText(value)}` };
}

type Part = Expr | null | undefined | false;

function present(parts: Part[]): Expr[] {
  return parts.filter((p): p is Expr => Boolean(p) && (p as Expr).text !== '');
}

/** `,` — AND binds looser than OR, so an OR group needs no parentheses here. */
export function and(...parts: Part[]): Expr {
  const items = present(parts);
  if (items.length === 1) return items[0]!;

  return { kind: 'and', text: items.map((p) => p.text).join(',') };
}

/** `|` — OR binds tighter than AND, so an AND group inside it is parenthesised. */
export function or(...parts: Part[]): Expr {
  const items = present(parts);
  if (items.length === 1) return items[0]!;

  return { kind: 'or', text: items.map((p) => (p.kind === 'and' ? `(${p.text})` : p.text)).join('|') };
}

/** The value of the `search` parameter; undefined when there is nothing to filter by. */
export function toSearch(expr: Expr | null | undefined): string | undefined {
  return expr && expr.text !== '' ? expr.text : undefined;
}
