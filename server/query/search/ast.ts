/** AST of the `search` query language (spec 1 "Filter parameter search", DECISIONS §4). */

/**
 * Canonical operators; the ASCII fallbacks `!=`, `>=`, `<=` are normalised to `≠`, `≥`, `≤`.
 * `~` (case-insensitive contains) is this service's extension; the spec's operators are case-sensitive.
 */
export type Operator = ':' | '=' | '≠' | '∉' | '^' | '>' | '≥' | '<' | '≤' | '∈' | '~';

export type TermValue =
  /** A value as written (`raw`) and URL-decoded once more (`text`). */
  | { kind: 'text'; raw: string; text: string }
  /** `NULL` after `=` or `:`. */
  | { kind: 'null' }
  /** `!NULL` after `=` or `:`. */
  | { kind: 'notNull' };

export type Term = {
  type: 'term';
  /** The field path split on `.`, e.g. `['teamAssignments', 'team', 'id']`. */
  path: string[];
  operator: Operator;
  value: TermValue;
  /** 0-based index of the term's first character in the search string. */
  position: number;
  /** The term as written (`field`, operator and raw value), for error details. */
  token: string;
};

type AndNode = { type: 'and'; children: SearchNode[] };
type OrNode = { type: 'or'; children: SearchNode[] };

export type SearchNode = Term | AndNode | OrNode;
