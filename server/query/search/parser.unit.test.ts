import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../errors';
import type { SearchNode, Term } from './ast';
import { parseSearch } from './parser';

/** Compact rendering of an AST: `field op value`, `(a AND b)`, `(a OR b)`. */
function show(node: SearchNode | undefined): string {
  if (!node) return '<none>';
  if (node.type === 'term') {
    const v = node.value;
    const value = v.kind === 'null' ? 'NULL' : v.kind === 'notNull' ? '!NULL' : JSON.stringify(v.text);
    return `${node.path.join('.')}${node.operator}${value}`;
  }
  return `(${node.children.map(show).join(node.type === 'and' ? ' AND ' : ' OR ')})`;
}

function term(input: string): Term {
  const node = parseSearch(input);
  if (node?.type !== 'term') throw new Error('not a term');
  return node;
}

function syntaxError(input: string): { position: unknown; token: unknown; message: string } {
  try {
    parseSearch(input);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    const e = error as ValidationError;
    expect(e.status).toBe(400);
    expect(e.key).toBe('search.error.syntax');
    return { position: e.details?.position, token: e.details?.token, message: e.message };
  }
  throw new Error(`expected a syntax error for ${input}`);
}

describe('parseSearch operators', () => {
  it.each([
    ['name:abc', ':'],
    ['name=abc', '='],
    ['name≠abc', '≠'],
    ['name!=abc', '≠'],
    ['name∉abc', '∉'],
    ['name^abc', '^'],
    ['count>abc', '>'],
    ['count≥abc', '≥'],
    ['count>=abc', '≥'],
    ['count<abc', '<'],
    ['count≤abc', '≤'],
    ['count<=abc', '≤'],
    ['tags∈abc', '∈'],
    ['name~abc', '~'],
  ])('%s uses operator %s', (input, operator) => {
    const t = term(input);
    expect(t.operator).toBe(operator);
    expect(t.value).toEqual({ kind: 'text', raw: 'abc', text: 'abc' });
  });

  it('takes the longest operator and keeps the rest in the value', () => {
    expect(show(parseSearch('a>==1'))).toBe('a≥"=1"');
    expect(show(parseSearch('a!==1'))).toBe('a≠"=1"');
    expect(show(parseSearch('a==1'))).toBe('a="=1"');
    expect(show(parseSearch('a:>1'))).toBe('a:">1"');
    expect(show(parseSearch('a<≥1'))).toBe('a<"≥1"');
  });

  it('allows an empty value', () => {
    expect(term('name=').value).toEqual({ kind: 'text', raw: '', text: '' });
  });
});

describe('parseSearch structure', () => {
  it.each([
    ['a:1|b:2,c:3', '((a:"1" OR b:"2") AND c:"3")'],
    ['a:1,b:2|c:3', '(a:"1" AND (b:"2" OR c:"3"))'],
    ['a:1|b:2|c:3', '(a:"1" OR b:"2" OR c:"3")'],
    ['a:1,b:2,c:3', '(a:"1" AND b:"2" AND c:"3")'],
    ['a:1|(b:2,c:3)', '(a:"1" OR (b:"2" AND c:"3"))'],
    ['(a:1|b:2),c:3', '((a:"1" OR b:"2") AND c:"3")'],
    ['((a:1))', 'a:"1"'],
    ['(a:1,(b:2|c:3)),d:4', '((a:"1" AND (b:"2" OR c:"3")) AND d:"4")'],
    [' ( a:1 ) , b:2', '(a:"1 " AND b:"2")'], // values keep their spaces
  ])('%s → %s', (input, expected) => {
    expect(show(parseSearch(input))).toBe(expected);
  });

  it('treats empty and whitespace-only searches as no filter', () => {
    expect(parseSearch('')).toBeUndefined();
    expect(parseSearch('   ')).toBeUndefined();
  });

  it('reads dotted field paths', () => {
    expect(term('teamAssignments.team.id=x').path).toEqual(['teamAssignments', 'team', 'id']);
    expect(term('folder.name:a').path).toEqual(['folder', 'name']);
  });

  it('records the position and token of each term', () => {
    const node = parseSearch('a:1,(bb=x%2Cy|c≠z)');
    expect(node?.type).toBe('and');
    const [first, group] = (node as { children: SearchNode[] }).children;
    expect(first).toMatchObject({ position: 0, token: 'a:1' });
    expect((group as { children: Term[] }).children[0]).toMatchObject({ position: 5, token: 'bb=x%2Cy' });
    expect((group as { children: Term[] }).children[1]).toMatchObject({ position: 14, token: 'c≠z' });
  });

  it('keeps spaces inside values', () => {
    expect(term('name:a b ').value).toMatchObject({ text: 'a b ' });
  });

  it('takes encoded parentheses in a value', () => {
    expect(term('name:a%28b%29').value).toMatchObject({ text: 'a(b)' });
  });
});

describe('parseSearch values', () => {
  it.each([
    ['tags∈a%2Cb', 'a,b'],
    ['name:a%2Cb', 'a,b'],
    ['name:%28x%29', '(x)'],
    ['name:a%7Cb', 'a|b'],
    ['name:100%25', '100%'],
    ['name:%E2%89%A0', '≠'],
    ['name:a%2', 'a%2'],
    ['name:%zz', '%zz'],
    ['name:a+b', 'a+b'],
  ])('%s decodes to %j', (input, text) => {
    expect(term(input).value).toMatchObject({ kind: 'text', text });
  });

  it('reads NULL and !NULL after = and :', () => {
    expect(term('parentId=NULL').value).toEqual({ kind: 'null' });
    expect(term('parentId:NULL').value).toEqual({ kind: 'null' });
    expect(term('x=!NULL').value).toEqual({ kind: 'notNull' });
    expect(term('x:!NULL').value).toEqual({ kind: 'notNull' });
  });

  it('treats NULL after other operators, encoded NULL and null as text', () => {
    expect(term('x≠NULL').value).toMatchObject({ kind: 'text', text: 'NULL' });
    expect(term('x=%4EULL').value).toMatchObject({ kind: 'text', text: 'NULL' });
    expect(term('x=null').value).toMatchObject({ kind: 'text', text: 'null' });
  });

  it('keeps true/false as text for the compiler to type', () => {
    expect(term('active=true').value).toMatchObject({ text: 'true' });
    expect(term('active:false').value).toMatchObject({ text: 'false' });
  });
});

describe('parseSearch syntax errors', () => {
  it.each([
    ['name', 4, '', "Expected an operator after 'name' at position 4"],
    ['name,a:1', 4, ',', "Expected an operator after 'name'"],
    ['name :x', 4, ' ', "Expected an operator after 'name' at position 4"],
    ['na#me:x', 2, '#', "Expected an operator after 'na'"],
    ['#a:1', 0, '#', "Unexpected character '#'"],
    [':1', 0, ':', 'Expected a field name'],
    ['a:1,', 4, '', 'Unexpected end'],
    ['a:1|', 4, '', 'Unexpected end'],
    [',a:1', 0, ',', "Expected a field or '('"],
    ['a:1,,b:2', 4, ',', "Expected a field or '('"],
    ['()', 0, '()', 'Empty group'],
    ['a:1,()', 4, '()', 'Empty group'],
    ['(a:1', 4, '', "Unmatched '('"],
    ['((a:1)', 6, '', "Unmatched '('"],
    ['a:1)', 3, ')', "Unmatched ')'"],
    [')', 0, ')', "Expected a field or '('"],
    ['(a:1)b:2', 5, 'b', "Expected ',' or '|'"],
    ['(a:1)(b:2)', 5, '(', "Expected ',' or '|'"],
    ['a.:1', 0, 'a.', 'Invalid field name'],
    ['.a:1', 0, '.a', 'Invalid field name'],
    ['a..b:1', 0, 'a..b', 'Invalid field name'],
    ['!a', 0, '!', 'Unexpected character'],
    // An unescaped parenthesis where a value is expected (write %28 / %29)
    ['name:(', 5, '(', "Unescaped '(' in the value of 'name'"],
    ['name:a(b', 6, '(', "Unescaped '('"],
    ['a:1,(name=x(y)', 11, '(', "Unescaped '('"],
    ['name:)', 5, ')', "Unmatched ')'"],
    ['name:a)', 6, ')', "Unmatched ')'"],
  ])('%j fails at %i (token %j)', (input, position, token, message) => {
    const error = syntaxError(input);
    expect(error.position).toBe(position);
    expect(error.token).toBe(token);
    expect(error.message).toContain(message);
  });
});

describe('parseSearch limits', () => {
  function limitError(input: string): { key: string; position: unknown; token: unknown; limit: unknown } {
    try {
      parseSearch(input);
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      const e = error as ValidationError;
      expect(e.status).toBe(400);
      return { key: e.key, position: e.details?.position, token: e.details?.token, limit: e.details?.limit };
    }
    throw new Error(`expected ${input.slice(0, 20)}… to fail`);
  }

  it('refuses parentheses nested deeper than 32 levels, at the first one too deep', () => {
    const ok = `${'('.repeat(32)}a:1${')'.repeat(32)}`;
    expect(show(parseSearch(ok))).toBe('a:"1"');
    expect(limitError(`${'('.repeat(33)}a:1${')'.repeat(33)}`)).toEqual({
      key: 'search.error.tooDeep',
      position: 32,
      token: '(',
      limit: 32,
    });
    expect(limitError(`a:1,${'(b:2|'.repeat(40)}c:3${')'.repeat(40)}`)).toMatchObject({
      key: 'search.error.tooDeep',
      position: 4 + 32 * 5,
    });
  });

  it('answers a 400, not a stack overflow, for thousands of parentheses', () => {
    expect(limitError(`${'('.repeat(4000)}a:1${')'.repeat(4000)}`)).toMatchObject({ key: 'search.error.tooDeep', position: 32 });
    expect(limitError('('.repeat(100_000))).toMatchObject({ key: 'search.error.tooLong' });
  });

  it('refuses a search longer than 16 384 characters', () => {
    const long = `name:${'x'.repeat(16_384 - 5)}`;
    expect(parseSearch(long)).toMatchObject({ type: 'term' });
    expect(limitError(`${long}x`)).toEqual({ key: 'search.error.tooLong', position: 16_384, token: '', limit: 16_384 });
  });

  it('refuses field chains of more than 8 segments', () => {
    expect(term('a.b.c.d.e.f.g.h=1').path).toHaveLength(8);
    expect(limitError('x:1,a.b.c.d.e.f.g.h.i=1')).toEqual({
      key: 'search.error.tooDeep',
      position: 4,
      token: 'a.b.c.d.e.f.g.h.i',
      limit: 8,
    });
  });
});
