import { ValidationError } from '../../errors';
import type { Operator } from './ast';

export type Token =
  | { type: 'lparen' | 'rparen' | 'and' | 'or' | 'end'; text: string; position: number }
  | { type: 'field'; text: string; position: number }
  | { type: 'operator'; text: string; operator: Operator; position: number }
  | { type: 'value'; text: string; position: number };

/** Longest match first: two-character ASCII fallbacks before their one-character prefixes. */
const OPERATORS: ReadonlyArray<readonly [string, Operator]> = [
  ['!=', '≠'],
  ['>=', '≥'],
  ['<=', '≤'],
  [':', ':'],
  ['=', '='],
  ['≠', '≠'],
  ['∉', '∉'],
  ['^', '^'],
  ['>', '>'],
  ['≥', '≥'],
  ['<', '<'],
  ['≤', '≤'],
  ['∈', '∈'],
  // Extension (docs/decisions.md "Query language"): case-insensitive contains, for plain-word searches.
  ['~', '~'],
];

const STRUCTURE: Record<string, 'lparen' | 'rparen' | 'and' | 'or'> = { '(': 'lparen', ')': 'rparen', ',': 'and', '|': 'or' };
/** A value ends at these; an unescaped `(` inside a value is a syntax error (write `%28`). */
const VALUE_END = new Set([',', '|', ')']);
const FIELD_CHAR = /[A-Za-z0-9_.]/;
const WHITESPACE = /\s/;

export function syntaxError(message: string, position: number, token: string): ValidationError {
  return new ValidationError('search.error.syntax', message, { position, token });
}

export function describeToken(token: Token): string {
  return token.type === 'end' ? 'the end of the search' : `'${token.text}'`;
}

function matchOperator(input: string, at: number): readonly [string, Operator] | undefined {
  return OPERATORS.find(([text]) => input.startsWith(text, at));
}

/**
 * Splits a search string into tokens. The language is context-sensitive: after a field and its
 * operator everything up to the next `,` `|` `)` is the value, so the tokenizer reads a whole term
 * (field, operator, value) at once and structure characters everywhere else.
 * Whitespace is skipped only where a field or a parenthesis may start; values keep it.
 */
export function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const ch = input[i]!;
    if (WHITESPACE.test(ch)) {
      i++;
      continue;
    }
    const structure = STRUCTURE[ch];
    if (structure) {
      tokens.push({ type: structure, text: ch, position: i });
      i++;
      continue;
    }
    i = readTerm(input, i, tokens);
  }
  tokens.push({ type: 'end', text: '', position: input.length });
  return tokens;
}

/** Reads `field operator value` starting at `start`; returns the index after it. */
function readTerm(input: string, start: number, tokens: Token[]): number {
  let i = start;
  while (i < input.length && FIELD_CHAR.test(input[i]!)) i++;
  const field = input.slice(start, i);
  if (field) tokens.push({ type: 'field', text: field, position: start });

  const operator = matchOperator(input, i);
  if (!operator) {
    if (i >= input.length || STRUCTURE[input[i]!]) {
      // Missing operator: the parser reports it with the surrounding context.
      return i;
    }
    const found = String.fromCodePoint(input.codePointAt(i)!);
    const message = field
      ? `Expected an operator after '${field}' at position ${i}, found '${found}'`
      : `Unexpected character '${found}' at position ${i}`;
    throw syntaxError(message, i, found);
  }
  const [text, canonical] = operator;
  tokens.push({ type: 'operator', text, operator: canonical, position: i });
  i += text.length;

  const valueStart = i;
  while (i < input.length && !VALUE_END.has(input[i]!)) {
    if (input[i] === '(') {
      throw syntaxError(`Unescaped '(' in the value of '${field}' at position ${i}; encode it as %28 (and ')' as %29)`, i, '(');
    }
    i++;
  }
  tokens.push({ type: 'value', text: input.slice(valueStart, i), position: valueStart });
  return i;
}
