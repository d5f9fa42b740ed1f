import { describe, expect, it } from 'vitest';
import { allowedMethods } from './method-not-allowed';

describe('allowedMethods', () => {
  const methodsOf = allowedMethods([
    { method: 'ALL', path: '*' },
    { method: 'GET', path: '/api/thing' },
    { method: 'POST', path: '/api/thing' },
    { method: 'DELETE', path: '/api/thing/:id' },
    { method: 'GET', path: '/api/thing/summary' },
    { method: 'PUT', path: '/api/thing/:id{[0-9]+}/name' },
    { method: 'GET', path: '/api/files/*' },
  ]);

  it('lists the methods of every route whose path matches, in a fixed order, HEAD with GET', () => {
    expect(methodsOf('/api/thing')).toEqual(['GET', 'HEAD', 'POST']);
    expect(methodsOf('/api/thing/')).toEqual(['GET', 'HEAD', 'POST']);
    expect(methodsOf('/api/thing/summary')).toEqual(['GET', 'HEAD', 'DELETE']);
    expect(methodsOf('/api/thing/42')).toEqual(['DELETE']);
    expect(methodsOf('/api/thing/42/name')).toEqual(['PUT']);
    expect(methodsOf('/api/files/a/b')).toEqual(['GET', 'HEAD']);
  });

  it('knows no methods for a path no route has (a 404, not a 405); path middleware is no route', () => {
    expect(methodsOf('/api/other')).toEqual([]);
    expect(methodsOf('/api/thing/x/name')).toEqual([]);
    expect(methodsOf('/api/thing/42/name/more')).toEqual([]);
  });
});
