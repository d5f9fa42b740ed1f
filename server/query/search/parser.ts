import { limitError, QUERY_LIMITS } from '../limits';
import type { SearchNode, Term, TermValue } from './ast';
import { describeToken, syntaxError, tokenize, type Token } from './tokenizer';

/**
 * Recursive-descent parser for `search`.
 *
 *   expression := disjunction (',' disjunction)*     -- AND
 *   disjunction := primary ('|' primary)*            -- OR binds tighter than AND
 *   primary := '(' expression ')' | term
 *   term := field operator value
 *
 * Returns undefined for an empty or whitespace-only search (no filter). The recursion is bounded:
 * longer than `QUERY_LIMITS.searchLength` characters or deeper than `searchDepth` parentheses is a 400.
 */
export function parseSearch(input: string): SearchNode | undefined {
  if (input.length > QUERY_LIMITS.searchLength) {
    const limit = QUERY_LIMITS.searchLength;
    throw limitError('search.error.tooLong', `The search is ${input.length} characters long; at most ${limit} are allowed`, {
      position: limit,
      token: '',
      limit,
    });
  }
  if (input.trim() === '') return undefined;
  return new Parser(input, tokenize(input)).parse();
}

/** Decodes the value's own URL encoding (the spec's double encoding); an undecodable value is kept as is. */
function decodeValue(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

class Parser {
  private index = 0;
  private depth = 0;

  constructor(
    private readonly input: string,
    private readonly tokens: Token[],
  ) {}

  parse(): SearchNode {
    const node = this.expression();
    const next = this.peek();
    if (next.type === 'rparen') throw syntaxError(`Unmatched ')' at position ${next.position}`, next.position, next.text);
    if (next.type !== 'end') {
      throw syntaxError(`Expected ',' or '|' at position ${next.position}, found ${describeToken(next)}`, next.position, next.text);
    }
    return node;
  }

  private expression(): SearchNode {
    const children = [this.disjunction()];
    while (this.peek().type === 'and') {
      this.index++;
      children.push(this.disjunction());
    }
    return children.length === 1 ? children[0]! : { type: 'and', children };
  }

  private disjunction(): SearchNode {
    const children = [this.primary()];
    while (this.peek().type === 'or') {
      this.index++;
      children.push(this.primary());
    }
    return children.length === 1 ? children[0]! : { type: 'or', children };
  }

  private primary(): SearchNode {
    const token = this.next();
    if (token.type === 'lparen') return this.group(token);
    if (token.type === 'field') return this.term(token);
    if (token.type === 'operator') {
      throw syntaxError(`Expected a field name before '${token.text}' at position ${token.position}`, token.position, token.text);
    }
    const message =
      token.type === 'end'
        ? `Unexpected end of the search at position ${token.position}, expected a field or '('`
        : `Expected a field or '(' at position ${token.position}, found ${describeToken(token)}`;
    throw syntaxError(message, token.position, token.text);
  }

  private group(open: Token): SearchNode {
    if (this.peek().type === 'rparen') {
      throw syntaxError(`Empty group '()' at position ${open.position}`, open.position, '()');
    }
    if (++this.depth > QUERY_LIMITS.searchDepth) {
      const limit = QUERY_LIMITS.searchDepth;
      throw limitError('search.error.tooDeep', `Parentheses nest deeper than ${limit} levels at position ${open.position}`, {
        position: open.position,
        token: '(',
        limit,
      });
    }
    const node = this.expression();
    this.depth--;
    const close = this.next();
    if (close.type !== 'rparen') {
      throw syntaxError(
        `Unmatched '(' at position ${open.position}: expected ')' at position ${close.position}, found ${describeToken(close)}`,
        close.position,
        close.text,
      );
    }
    return node;
  }

  private term(field: Token): Term {
    const path = field.text.split('.');
    if (path.some((segment) => segment === '')) {
      throw syntaxError(`Invalid field name '${field.text}' at position ${field.position}`, field.position, field.text);
    }
    if (path.length > QUERY_LIMITS.pathSegments) {
      const limit = QUERY_LIMITS.pathSegments;
      throw limitError('search.error.tooDeep', `Field '${field.text}' at position ${field.position} chains more than ${limit} fields`, {
        position: field.position,
        token: field.text,
        limit,
      });
    }
    const operator = this.next();
    if (operator.type !== 'operator') {
      const at = field.position + field.text.length;
      throw syntaxError(`Expected an operator after '${field.text}' at position ${at}`, at, operator.text);
    }
    const value = this.next();
    if (value.type !== 'value') throw new Error('tokenizer emitted an operator without a value');
    const end = value.position + value.text.length;
    return {
      type: 'term',
      path,
      operator: operator.operator,
      value: termValue(operator.operator, value.text),
      position: field.position,
      token: this.input.slice(field.position, end),
    };
  }

  private peek(): Token {
    return this.tokens[this.index]!;
  }

  private next(): Token {
    const token = this.tokens[this.index]!;
    if (token.type !== 'end') this.index++;
    return token;
  }
}

function termValue(operator: string, raw: string): TermValue {
  if (operator === '=' || operator === ':') {
    if (raw === 'NULL') return { kind: 'null' };
    if (raw === '!NULL') return { kind: 'notNull' };
  }
  return { kind: 'text', raw, text: decodeValue(raw) };
}
