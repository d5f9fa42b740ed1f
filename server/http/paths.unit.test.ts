import { describe, expect, it } from 'vitest';
import { isApiPath } from './paths';

describe('isApiPath', () => {
  it.each([
    '/api',
    '/api/',
    '/api/x',
    '/api/v2/user/me',
    '/api/openapi.json',
    '/api/docs',
    '/api/authz', // only /api/auth and below belong to next-auth
    '/api/authentication/x',
    '/public-api/x',
    '/oauth',
    '/oauth/token',
    '/oauth/jwks',
    '/healthz',
    '/readyz',
    '/metrics',
    '/metrics?name[]=x',
  ])('%s is served by the API', (path) => {
    expect(isApiPath(path)).toBe(true);
  });

  it.each([
    '/',
    '/login',
    '/files',
    '/api/auth',
    '/api/auth/session',
    '/api/auth/callback/credentials',
    '/apix',
    '/api-docs',
    '/oauthx',
    '/public-apix',
    '/healthz/extra',
    '/metrics/extra',
    '/metricsx',
    '/_next/static/chunk.js',
    '/login?next=/api/x',
  ])('%s is the console', (path) => {
    expect(isApiPath(path)).toBe(false);
  });

  it('ignores the query string', () => {
    expect(isApiPath('/api/x?customerId=1')).toBe(true);
    expect(isApiPath('/oauth/token?x=/login')).toBe(true);
    expect(isApiPath('/healthz?probe=1')).toBe(true);
    expect(isApiPath('/api/auth/session?update=1')).toBe(false);
    expect(isApiPath('/api/auth?x=1')).toBe(false);
    expect(isApiPath('/dashboard?next=/api/x')).toBe(false);
  });
});
