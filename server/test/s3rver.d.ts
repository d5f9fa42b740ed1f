// The parts of @20minutes/s3rver (plain JavaScript, no types) that server/test/s3-server.ts uses.
declare module '@20minutes/s3rver' {
  import type { Server } from 'node:http';
  import type { Readable } from 'node:stream';

  type Middleware = (ctx: S3rverContext, next: () => Promise<void>) => Promise<void>;

  export type S3rverContext = {
    method: string;
    path: string;
    query: Record<string, string | string[] | undefined>;
    params: Record<string, string | undefined>;
    state: Record<string, unknown>;
    body: unknown;
    status: number;
  };

  export type FilesystemStore = {
    getBucket(bucket: string): Promise<unknown>;
    getResourcePath(bucket: string, key: string | undefined, resource: string): string;
    putContent(path: string, content: Readable | Buffer): Promise<[number, string]>;
    putPart(bucket: string, uploadId: string, partNumber: string | number, content: Readable): Promise<{ size: number; md5: string }>;
    putObjectMultipart(
      bucket: string,
      uploadId: string,
      parts: Array<{ number: number; etag: string }>,
    ): Promise<{ size: number; md5: string }>;
  };

  export default class S3rver {
    constructor(options: {
      address?: string;
      port?: number;
      silent?: boolean;
      directory?: string;
      vhostBuckets?: boolean;
      resetOnClose?: boolean;
      configureBuckets?: Array<{ name: string; configs?: Array<string | Buffer> }>;
    });
    store: FilesystemStore;
    middleware: Middleware[];
    httpServer?: Server;
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
}

declare module '@20minutes/s3rver/lib/models/error.js' {
  export default class S3Error extends Error {
    constructor(code: string, message?: string, detail?: Record<string, unknown>);
  }
}

declare module '@20minutes/s3rver/lib/middleware/authentication.js' {
  import type { S3rverContext } from '@20minutes/s3rver';

  export default function authentication(): (ctx: S3rverContext, next: () => Promise<void>) => Promise<void>;
}
