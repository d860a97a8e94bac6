import type {
  ComplaintImageRow,
  DentalAiResultRow,
  MedicalFileRow,
  OralPhotoRow,
} from '#api/db/schema';
import { extensionOfKey } from '../files/file-storage';
import type { MemberRecord } from './data-export.repository';

/** One stored file as it is copied into the archive. */
export interface ArchivedFile {
  /** Blob store key of the original. */
  key: string;
  /** Path inside the zip, '/'-separated, from its root. */
  path: string;
  contentType: string;
  /** What the index and the Bundle call it. */
  title: string;
  sizeBytes?: number;
}

/** Keeps a member's own file name readable while making it safe as a zip path on every system. */
const safeName = (name: string) =>
  name
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}._-]+/gu, '_')
    .replace(/^\.+/, '')
    .slice(0, 120) || 'file';

/**
 * Where each stored file goes inside the archive (docs/decisions/data-export.md): `files/` beside
 * `fhir/bundle.json` and `index.html`, one folder per kind, each name starting with the row's id
 * so that two files never collide.
 */
export class ArchiveLayout {
  constructor(readonly exportId: string) {}

  photo(photo: OralPhotoRow): ArchivedFile {
    const folder = photo.photoType === 'X-ray' ? 'x-rays' : 'photos';
    return {
      key: photo.blobKey,
      path: `files/${folder}/${photo.shootDate}_${photo.id}.${extensionOfKey(photo.blobKey)}`,
      contentType: photo.contentType,
      title: `${photo.photoType} of ${photo.shootDate}`,
      sizeBytes: photo.sizeBytes,
    };
  }

  /** The DICOM file an imported X-ray was rendered from, beside the rendered image. */
  dicomOriginal(photo: OralPhotoRow & { originalKey: string }): ArchivedFile {
    return {
      key: photo.originalKey,
      path: `files/x-rays/${photo.shootDate}_${photo.id}.dcm`,
      contentType: 'application/dicom',
      title: `DICOM original of the X-ray of ${photo.shootDate}`,
      ...(photo.originalSizeBytes === null ? {} : { sizeBytes: photo.originalSizeBytes }),
    };
  }

  recordFile(file: MedicalFileRow): ArchivedFile {
    return {
      key: file.blobKey,
      path: `files/records/${file.recordId}/${file.id}_${safeName(file.fileName)}`,
      contentType: file.contentType,
      title: file.fileName,
      sizeBytes: file.sizeBytes,
    };
  }

  dentalAiImage(result: DentalAiResultRow): ArchivedFile {
    return {
      key: result.blobKey,
      path: `files/dental-ai/${result.id}.${extensionOfKey(result.blobKey)}`,
      contentType: result.contentType,
      title: 'Image analysed by Dental AI',
    };
  }

  summaryImage(reservationId: string, image: ComplaintImageRow): ArchivedFile {
    return {
      key: image.blobKey,
      path: `files/consultations/${reservationId}/${image.id}_${safeName(image.fileName)}`,
      contentType: image.contentType,
      title: image.fileName,
    };
  }

  /** Every file of the record, in the order the archive holds them. */
  files(record: MemberRecord): ArchivedFile[] {
    return [
      ...record.photos.flatMap((photo) => {
        const { originalKey } = photo;
        return originalKey === null
          ? [this.photo(photo)]
          : [this.photo(photo), this.dicomOriginal({ ...photo, originalKey })];
      }),
      ...record.records.flatMap(({ files }) => files.map((file) => this.recordFile(file))),
      ...record.dentalAiResults.map((result) => this.dentalAiImage(result)),
      ...record.consultations.flatMap(({ reservation, summaryImages }) =>
        summaryImages.map((image) => this.summaryImage(reservation.id, image)),
      ),
    ];
  }
}
