import { sql, type Column } from 'drizzle-orm';
import { medicalFiles, oralPhotos } from './schema';

/**
 * A member's stored bytes as one SQL expression: photos (image, thumbnail and any DICOM
 * original) and medical files, which share the plan's quota. Shared so that the account answer
 * reads it in the same statement as the member. SUM of integers is a bigint, which the drivers
 * hand over as a string.
 */
export function storedBytesOf(userId: string | Column) {
  return sql<string>`(select coalesce(sum(${oralPhotos.sizeBytes} + ${oralPhotos.thumbnailSizeBytes} + coalesce(${oralPhotos.originalSizeBytes}, 0)), 0) from ${oralPhotos} where ${oralPhotos.userId} = ${userId})
    + (select coalesce(sum(${medicalFiles.sizeBytes}), 0) from ${medicalFiles} where ${medicalFiles.userId} = ${userId})`;
}
