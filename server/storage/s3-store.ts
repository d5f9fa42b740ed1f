import type { Config } from '@/server/config';
import type { BlobStore } from './blob-store';

// Replaced by the S3 backend (work in progress in this branch).
export function createS3Store(_config: NonNullable<Config['s3']>): BlobStore {
  throw new Error('S3 storage is not available yet');
}
