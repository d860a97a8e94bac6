import path from 'node:path';
import { z } from 'zod';
import { ConfigError, httpUrl, optional } from './fields';

/** Where the product's data lives: DATA_DIR, the database and the uploaded files. */
export const storageEnv = z.object({
  DATA_DIR: optional(z.string()),
  DATABASE_URL: optional(
    z.url({
      protocol: /^postgres(ql)?$/,
      error: 'DATABASE_URL must be a postgres:// or postgresql:// URL.',
    }),
  ),
  S3_BUCKET: optional(z.string()),
  S3_REGION: optional(z.string()),
  S3_ENDPOINT: optional(httpUrl('S3_ENDPOINT')),
  S3_ACCESS_KEY_ID: optional(z.string()),
  S3_SECRET_ACCESS_KEY: optional(z.string()),
  S3_FORCE_PATH_STYLE: optional(
    z.enum(['true', 'false'], 'S3_FORCE_PATH_STYLE must be true or false.'),
  ),
});

export interface StorageSection {
  /** Absolute path; holds the embedded database, the mail outbox and generated secrets. */
  dataDir: string;
  /** Unset means the embedded PGlite database in `dataDir/pg`. */
  databaseUrl: string | undefined;
  /** Uploaded files go to this S3-compatible bucket; unset means `dataDir/blobs` on disk. */
  s3: S3Settings | undefined;
}

export interface S3Settings {
  bucket: string;
  region: string;
  /** For S3-compatible servers; unset means AWS. */
  endpoint?: string;
  /** Both or neither; neither means the SDK's default credential chain. */
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
}

export function parseStorage(vars: z.infer<typeof storageEnv>): StorageSection {
  return {
    dataDir: path.resolve(vars.DATA_DIR ?? 'data'),
    databaseUrl: vars.DATABASE_URL,
    s3: parseS3(vars),
  };
}

/** S3 when S3_BUCKET is set; the access key and its secret come together or not at all. */
function parseS3(vars: z.infer<typeof storageEnv>): S3Settings | undefined {
  if (vars.S3_BUCKET === undefined) return undefined;
  if ((vars.S3_ACCESS_KEY_ID === undefined) !== (vars.S3_SECRET_ACCESS_KEY === undefined)) {
    throw new ConfigError(
      'Invalid configuration:\n  S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together.',
    );
  }
  return {
    bucket: vars.S3_BUCKET,
    region: vars.S3_REGION ?? 'us-east-1',
    ...(vars.S3_ENDPOINT === undefined ? {} : { endpoint: vars.S3_ENDPOINT }),
    ...(vars.S3_ACCESS_KEY_ID === undefined || vars.S3_SECRET_ACCESS_KEY === undefined
      ? {}
      : { accessKeyId: vars.S3_ACCESS_KEY_ID, secretAccessKey: vars.S3_SECRET_ACCESS_KEY }),
    forcePathStyle: vars.S3_FORCE_PATH_STYLE === 'true',
  };
}
