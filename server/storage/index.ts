import path from 'node:path';
import type { Config } from '@/server/config';
import type { BlobStore } from './blob-store';
import { createLocalStore } from './local-store';

export type { BlobStore } from './blob-store';

/** The configured store: S3 when S3_BUCKET is set, else local files under DATA_DIR/storage. */
export async function createBlobStore(config: Config): Promise<BlobStore> {
  if (config.s3) {
    const { createS3Store } = await import('./s3-store');

    return createS3Store(config.s3);
  }

  return createLocalStore(path.join(config.dataDir, 'storage'));
}
