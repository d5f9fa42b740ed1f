import { describe, expect, it } from 'vitest';
import { curlLine } from './curl';
import { judge, type Answer, type Sent } from './judge';
import type { Operation } from './operations';
import type { Verdict } from './schema-validator';

const operation: Operation = {
  method: 'POST',
  path: '/api/thing',
  operationId: 'createThing',
  audience: 'user',
  spec: { operationId: 'createThing', responses: { 201: {}, 400: {}, 401: {}, 403: {}, 404: {} } },
};
const valid: Verdict = { valid: true };
const invalid: Verdict = { valid: false, path: 'body/items/3/name', keyword: 'maxLength', message: 'too long' };
const admitted: Sent = { admitted: true, credential: 'owner-bearer', carriesCredential: false };
const kinds = (verdict: Verdict, sent: Sent, answer: Answer) =>
  judge(operation, verdict, sent, answer).map((j) => `${j.kind}: ${j.signature}`);

describe('judge', () => {
  it.each<[string, Verdict, Sent, Answer, string[]]>([
    ['a created thing', valid, admitted, { status: 201 }, []],
    ['a 500, whatever else', valid, admitted, { status: 500, key: 'server.error.internal' }, ['server error: 500 server.error.internal']],
    [
      'a 500 to a broken credential names it',
      valid,
      { ...admitted, admitted: false, credential: 'malformed-cookie' },
      { status: 500, key: 'server.error.internal' },
      ['server error: 500 server.error.internal (credential: malformed-cookie)'],
    ],
    ['an undeclared 409', valid, admitted, { status: 409, key: 'thing.error.inUse' }, ['undeclared status: 409 thing.error.inUse']],
    ['a declared 404 for a valid request', valid, admitted, { status: 404, key: 'thing.error.notFound' }, []],
    ['a 403 (who calls)', valid, admitted, { status: 403, key: 'auth.error.roleRequired' }, []],
    ['a 400 of the search language', valid, admitted, { status: 400, key: 'search.error.unknownField' }, []],
    ['a 400 at the resource limit', valid, admitted, { status: 400, key: 'resourceLimit.error.limitReached' }, []],
    [
      'a validation 400 for a valid request',
      valid,
      admitted,
      { status: 400, key: 'request.error.invalid', target: 'json', issuePath: 'email' },
      ['valid input refused: 400 request.error.invalid (json email)'],
    ],
    [
      'a 401 to an admitted credential',
      valid,
      admitted,
      { status: 401, key: 'auth.error.invalidToken' },
      ['valid input refused: 401 auth.error.invalidToken'],
    ],
    [
      'a 401 to a token the request carries as input',
      valid,
      { ...admitted, carriesCredential: true },
      { status: 401, key: 'auth.error.invalidToken' },
      [],
    ],
    [
      'a 400 to a credential the operation does not admit',
      valid,
      { ...admitted, admitted: false, credential: 'device-bearer' },
      { status: 400, key: 'request.error.invalid' },
      [],
    ],
    ['an invalid request accepted', invalid, admitted, { status: 201 }, ['invalid input accepted: body.items[].name: maxLength']],
    [
      'an invalid item a batch refused on its own',
      { valid: false, path: 'body/3/attentionMs', keyword: 'minimum', message: 'too small' },
      admitted,
      { status: 201, rejected: [1, 3] },
      [],
    ],
    [
      'an invalid item a batch stored',
      { valid: false, path: 'body/3/attentionMs', keyword: 'minimum', message: 'too small' },
      admitted,
      { status: 201, rejected: [1] },
      ['invalid input accepted: body[].attentionMs: minimum'],
    ],
    [
      'a rule between values, with its own key',
      valid,
      admitted,
      { status: 400, key: 'request.error.invalidCombination', target: 'json', issuePath: 'to' },
      [],
    ],
    ['an invalid request refused', invalid, admitted, { status: 400, key: 'request.error.invalid' }, []],
    ['an invalid request with a refused credential', invalid, { ...admitted, admitted: false, credential: 'none' }, { status: 201 }, []],
    [
      'a request that cannot be judged',
      { valid: 'unknown', reason: 'binary body' },
      admitted,
      { status: 400, key: 'request.error.invalid' },
      [],
    ],
  ])('%s', (_name, verdict, sent, answer, expected) => {
    expect(kinds(verdict, sent, answer)).toEqual(expected);
  });
});

describe('curlLine', () => {
  it('quotes for a POSIX shell and names the credential by placeholder', () => {
    const line = curlLine(
      {
        method: 'POST',
        url: "/api/thing?name=it's",
        headers: {},
        body: { mediaType: 'application/json', kind: 'json', text: '{"a":"b\'c"}' },
      },
      'owner-bearer',
      '',
    );
    expect(line).toBe(
      `curl -sS -X POST 'http://localhost:3000/api/thing?name=it'\\''s' -H "Authorization: Bearer $OWNER_TOKEN" -H 'Content-Type: application/json' --data-raw '{"a":"b'\\''c"}'`,
    );
  });

  it('writes a broken session cookie as it was sent', () => {
    expect(curlLine({ method: 'GET', url: '/api/v2/user/me', headers: {} }, 'malformed-cookie', '%')).toBe(
      `curl -sS -X GET 'http://localhost:3000/api/v2/user/me' -H 'Cookie: next-auth.session-token=%'`,
    );
  });
});
