/**
 * S3's multipart limits, for code that plans chunked uploads without loading the AWS SDK
 * (DECISIONS §7: on S3 storage every chunk but the last must be at least 5 MiB).
 */
export const S3_MIN_PART_SIZE = 5 * 1024 * 1024;
