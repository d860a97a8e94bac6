import { eq, inArray } from 'drizzle-orm';
import type { Database } from '#api/db/client';
import { storedFileDigests } from '#api/db/schema';

export interface FileDigest {
  sha256: string;
  sizeBytes: number;
}

/** The SHA-256 recorded for each stored file (docs/decisions/file-integrity.md). */
export class FileDigestRepository {
  constructor(private readonly db: Database) {}

  /** Records (or, for a key written again, replaces) the digest of a file just stored. */
  async record(blobKey: string, digest: FileDigest): Promise<void> {
    await this.db
      .insert(storedFileDigests)
      .values({ blobKey, ...digest })
      .onConflictDoUpdate({ target: storedFileDigests.blobKey, set: digest });
  }

  async find(blobKey: string): Promise<FileDigest | undefined> {
    const [row] = await this.db
      .select({ sha256: storedFileDigests.sha256, sizeBytes: storedFileDigests.sizeBytes })
      .from(storedFileDigests)
      .where(eq(storedFileDigests.blobKey, blobKey));
    return row;
  }

  /** The digests of the given keys, by key (for a check of many files at once). */
  async findMany(blobKeys: readonly string[]): Promise<Map<string, FileDigest>> {
    if (blobKeys.length === 0) return new Map();
    const rows = await this.db
      .select()
      .from(storedFileDigests)
      .where(inArray(storedFileDigests.blobKey, [...blobKeys]));
    return new Map(rows.map((row) => [row.blobKey, row]));
  }

  async remove(blobKey: string): Promise<void> {
    await this.db.delete(storedFileDigests).where(eq(storedFileDigests.blobKey, blobKey));
  }
}
