import { describe, expect, it } from 'vitest';
import { consoleContentSecurityPolicy, uploadOriginsOf } from './content-security-policy';

const directive = (policy: string, name: string) => policy.split('; ').find((d) => d.startsWith(`${name} `));

describe('consoleContentSecurityPolicy', () => {
  it('admits only scripts with the request’s nonce (and what they load); eval only in development', () => {
    const policy = consoleContentSecurityPolicy({ nonce: 'abc123', development: false, uploadOrigins: [] });
    expect(directive(policy, 'script-src')).toBe("script-src 'self' 'nonce-abc123' 'strict-dynamic'");
    expect(policy).not.toContain('unsafe-eval');
    expect(directive(policy, 'object-src')).toBe("object-src 'none'");
    expect(directive(policy, 'frame-ancestors')).toBe("frame-ancestors 'none'");
    const dev = consoleContentSecurityPolicy({ nonce: 'n', development: true, uploadOrigins: [] });
    expect(directive(dev, 'script-src')).toContain("'unsafe-eval'");
    expect(directive(dev, 'connect-src')).toContain('ws:');
  });

  it('shows images of the console, data: and blob:, and remote ones over https only (feed images), nothing else', () => {
    const policy = consoleContentSecurityPolicy({ nonce: 'n', development: false, uploadOrigins: [] });
    expect(directive(policy, 'img-src')).toBe("img-src 'self' data: blob: https:");
    expect(directive(policy, 'img-src')).not.toContain('http:');
    // The rest stays as strict: https reaches images only.
    expect(directive(policy, 'default-src')).toBe("default-src 'self'");
    expect(directive(policy, 'media-src')).toBe("media-src 'self' blob:");
    expect(directive(policy, 'connect-src')).toBe("connect-src 'self'");
  });

  it('lets uploads reach the S3 endpoint of presigned part URLs', () => {
    const policy = consoleContentSecurityPolicy({
      nonce: 'n',
      development: false,
      uploadOrigins: ['https://media.s3.eu-west-1.amazonaws.com'],
    });
    expect(directive(policy, 'connect-src')).toBe("connect-src 'self' https://media.s3.eu-west-1.amazonaws.com");
  });
});

describe('uploadOriginsOf', () => {
  it('is nothing with local storage', () => {
    expect(uploadOriginsOf({})).toEqual([]);
  });

  it('names the endpoint the presigned URLs use: bucket as host, or path style', () => {
    expect(uploadOriginsOf({ S3_BUCKET: 'media', S3_ENDPOINT: 'http://minio.local:9000' })).toEqual(['http://media.minio.local:9000']);
    expect(uploadOriginsOf({ S3_BUCKET: 'media', S3_ENDPOINT: 'http://minio.local:9000/', S3_FORCE_PATH_STYLE: 'true' })).toEqual([
      'http://minio.local:9000',
    ]);
    expect(uploadOriginsOf({ S3_BUCKET: 'media', S3_REGION: 'eu-west-1' })).toEqual(['https://media.s3.eu-west-1.amazonaws.com']);
    expect(uploadOriginsOf({ S3_BUCKET: 'media', S3_FORCE_PATH_STYLE: 'yes' })).toEqual(['https://s3.us-east-1.amazonaws.com']);
  });
});
