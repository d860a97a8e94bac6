import {
  dentalAiKindUnavailableMessage,
  dentalAiPhotoNotFoundMessage,
  dentalAiTypes,
  dentalAiUnavailableMessage,
  dentalAiWrongKindMessage,
  type DentalAiResult,
  type DentalAiResultListQuery,
  type DentalAiStatus,
  type DentalAiType,
  type ImageKind,
  type PhotoType,
} from '@dental/contracts';
import {
  DetectorUnavailable,
  WrongImageKind,
  type Detector,
} from '#api/adapters/detector/detector';
import type { Clock } from '#api/clock';
import { markStage } from '#api/lib/stage-marks';
import type { BlobStore } from '#api/adapters/blob-store/blob-store';
import { buffer } from 'node:stream/consumers';
import type { Database } from '#api/db/client';
import type { DentalAiResultRow } from '#api/db/schema';
import { NotFound, ServiceUnavailable, UnprocessableEntity } from '#api/domain-errors';
import { pageOf, type Page } from '#api/lib/pagination';
import { extensionOfKey, newBlobKey, type FileStorage } from '../files/file-storage';
import type { PlanLimitsService, YearlyUsage } from '../membership/plan-limits.service';
import type { ImageForDetection, UploadAcceptance } from '../uploads/upload-acceptance';
import type { DentalAiRepository } from './dental-ai.repository';
import { tierOf, type ShippedModelFigures } from './model-figures';

export const dentalAiResultNotFoundMessage = 'This result was not found.';
export const detectionFailedMessage =
  'The detection could not be run just now. Please try again later.';

/** The member's stored photos and X-rays, as a run on one reads them (wired in services.ts). */
export interface StoredPhotos {
  find(
    userId: string,
    id: string,
  ): Promise<{ id: string; blobKey: string; photoType: PhotoType } | undefined>;
}

/** Writes a run's audit row in the transaction `tx` that stores its result (wired in
 *  services.ts to the audit trail). */
export interface ResultAudit {
  created(tx: Database, memberId: string, resultId: string): Promise<void>;
}

/**
 * Dental AI (docs/product/dental-ai.md): detections on an uploaded image, stored with the image,
 * each run one of the plan's yearly uses (docs/product/dental-ai.md#limits). Nothing is stored and
 * no use is spent when a run fails.
 */
export class DentalAiService {
  constructor(
    private readonly repository: DentalAiRepository,
    private readonly uploads: UploadAcceptance,
    private readonly planLimits: PlanLimitsService,
    private readonly files: FileStorage,
    private readonly detector: Detector,
    private readonly clock: Clock,
    private readonly photos: StoredPhotos,
    private readonly blobs: BlobStore,
    private readonly modelFigures: ShippedModelFigures,
    private readonly audit: ResultAudit,
  ) {}

  /** Which types this server can run, and the plan's uses in this membership year. */
  async status(userId: string): Promise<DentalAiStatus> {
    return {
      types: dentalAiTypes.map((type) => {
        const imageKinds = this.detector.imageKinds(type);
        return { dental_ai: type, available: imageKinds.length > 0, image_kinds: imageKinds };
      }),
      uses: await this.usage(userId),
    };
  }

  async get(userId: string, id: string): Promise<DentalAiResult> {
    const row = await this.repository.find(userId, id);
    if (row === undefined) throw new NotFound(dentalAiResultNotFoundMessage);
    return this.toResult(row);
  }

  /** The member's results among `ids` (attached to a message), newest first. */
  async getMany(userId: string, ids: readonly string[]): Promise<DentalAiResult[]> {
    const rows = await this.repository.findMany(userId, ids);
    return rows.map((row) => this.toResult(row));
  }

  /** The member's past results, newest first. */
  async list(userId: string, query: DentalAiResultListQuery): Promise<Page<DentalAiResult>> {
    const page = pageOf(await this.repository.list(userId, query), query);
    return { ...page, items: page.items.map((row) => this.toResult(row)) };
  }

  /** Deletes a result and its stored image; the use it spent stays spent. */
  async delete(userId: string, id: string): Promise<void> {
    const row = await this.repository.delete(userId, id);
    if (row === undefined) throw new NotFound(dentalAiResultNotFoundMessage);
    await this.files.discard([row.blobKey]);
  }

  /**
   * Runs a detection on the image (checked by its bytes, 5 MB at most) with the model for its
   * kind (the member's `imageKind`, else what its pixels show) and stores image and boxes as one
   * of the plan's uses.
   */
  async detect(
    userId: string,
    type: DentalAiType,
    imageUrl: string,
    imageKind?: ImageKind,
  ): Promise<DentalAiResult> {
    return this.run(userId, type, () => this.uploads.acceptImageForDetection(imageUrl), {
      imageKind,
      oralPhotoId: null,
    });
  }

  /**
   * The same run on one of the member's stored photos or X-rays, with no second upload: the
   * stored image is read from the blob store, its type says which model reads it, and it counts
   * as one of the plan's uses like an upload. The result keeps a copy of the image and the
   * photo's id, so it stays whole when the photo is deleted.
   */
  async detectStoredPhoto(
    userId: string,
    type: DentalAiType,
    oralPhotoId: string,
  ): Promise<DentalAiResult> {
    const photo = await this.photos.find(userId, oralPhotoId);
    if (photo === undefined) throw new NotFound(dentalAiPhotoNotFoundMessage);
    return this.run(
      userId,
      type,
      async () => {
        const blob = await this.blobs.get(photo.blobKey);
        if (blob === null) throw new NotFound(dentalAiPhotoNotFoundMessage);
        return this.uploads.acceptStoredImageForDetection(await buffer(blob.stream));
      },
      { imageKind: photo.photoType === 'X-ray' ? 'xray' : 'photo', oralPhotoId: photo.id },
    );
  }

  /** The cheap refusals come before the model runs; nothing is stored and no use is spent when
   *  the run fails. */
  private async run(
    userId: string,
    type: DentalAiType,
    accept: () => Promise<ImageForDetection>,
    source: { imageKind: ImageKind | undefined; oralPhotoId: string | null },
  ): Promise<DentalAiResult> {
    markStage('handler');
    const { imageKind } = source;
    if (this.detector.imageKinds(type).length === 0) {
      throw new ServiceUnavailable(dentalAiUnavailableMessage(type));
    }
    // A first look without locking, so a member with no uses left costs no inference; the
    // reservation in the storing transaction below is what holds under concurrent runs. The
    // image is decoded meanwhile: once and upright (EXIF orientation applied), so the model reads
    // these pixels and the stored copy, without metadata, is encoded from them and the boxes fit.
    const [usage, image] = await Promise.all([this.usage(userId), accept()]);
    markStage('uses and decode');
    this.planLimits.refuseSpentUses('dentalAiUsesPerYear', usage);
    const prepared = await this.detecting(type, () =>
      this.detector.prepare(type, image.pixels, imageKind),
    );
    // The stored copy is encoded and written while the model runs, off the answer's path; not
    // before, so that on a busy machine the kind rule and the letterbox have the cores to
    // themselves, and a refused image is never encoded.
    const store = async () => {
      const stored = await image.encode();
      const key = newBlobKey(userId, 'dental-ai', stored.extension);
      await this.files.put([{ key, bytes: stored.bytes, contentType: stored.contentType }]);
      markStage('stored copy');
      return { key, contentType: stored.contentType };
    };
    const [detected, written] = await Promise.allSettled([
      this.detecting(type, () => this.detector.run(prepared)),
      store(),
    ]);
    if (detected.status === 'rejected') {
      if (written.status === 'fulfilled') await this.files.discard([written.value.key]);
      throw detected.reason;
    }
    if (written.status === 'rejected') throw written.reason;
    const outcome = detected.value;
    const { key: blobKey, contentType } = written.value;
    try {
      const row = await this.repository.transaction(async (results, tx) => {
        const now = this.clock.now();
        await this.planLimits.reserveUse('dentalAiUsesPerYear', tx, userId, now, (since) =>
          results.countSince(userId, since),
        );
        const inserted = await results.insert(
          userId,
          {
            dentalAi: type,
            blobKey,
            contentType,
            imageWidth: outcome.width,
            imageHeight: outcome.height,
            detections: outcome.detections,
            imageKind: outcome.imageKind,
            imageKindSource: outcome.imageKindSource,
            oralPhotoId: source.oralPhotoId,
            modelName: outcome.model.name,
            modelVersion: outcome.model.version,
          },
          now,
        );
        // The run's audit row commits with the result: one commit, and never one without the
        // other (the route leaves only refusals and failures to the audit plugin).
        await this.audit.created(tx, userId, inserted.id);
        return inserted;
      });
      markStage('committed');
      return this.toResult(row);
    } catch (error) {
      await this.files.discard([blobKey]);
      throw error;
    }
  }

  private usage(userId: string): Promise<YearlyUsage> {
    return this.planLimits.yearlyUsage(
      'dentalAiUsesPerYear',
      this.repository.db,
      userId,
      this.clock.now(),
      (since) => this.repository.countSince(userId, since),
    );
  }

  /** A type that cannot read this kind of image is a 422 the member can act on; any other
   *  detector failure is a 503 with a sentence for the member, the cause going to the log. */
  private async detecting<T>(type: DentalAiType, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof WrongImageKind) {
        const message = dentalAiWrongKindMessage(type);
        throw new UnprocessableEntity(message, { image_kind: [message] });
      }
      if (error instanceof DetectorUnavailable) {
        throw new ServiceUnavailable(
          error.kind === undefined
            ? dentalAiUnavailableMessage(type)
            : dentalAiKindUnavailableMessage(type, error.kind),
          error,
        );
      }
      throw new ServiceUnavailable(detectionFailedMessage, error);
    }
  }

  /** Rows never leave the service: the result of docs/product/dental-ai.md#dental-ai-calls with a
   *  signed link to the image. */
  private toResult(row: DentalAiResultRow): DentalAiResult {
    const day = row.createdAt.toISOString().slice(0, 10);
    const recorded = this.modelFigures.of(row.modelName, row.dentalAi, row.imageKind);
    return {
      id: row.id,
      dental_ai: row.dentalAi,
      image_url: this.files.link({
        key: row.blobKey,
        contentType: row.contentType,
        disposition: 'inline',
        fileName: `dental-ai-${row.dentalAi}-${day}.${extensionOfKey(row.blobKey)}`,
      }),
      image_width: row.imageWidth,
      image_height: row.imageHeight,
      detection_selection: row.detections.map((detection) => ({
        xmin: detection.xmin,
        ymin: detection.ymin,
        xmax: detection.xmax,
        ymax: detection.ymax,
        crop_prediction: detection.label,
        confidence: detection.confidence,
        tier: tierOf(detection, recorded),
      })),
      image_kind: row.imageKind,
      image_kind_source: row.imageKindSource,
      model_name: row.modelName,
      model_version: row.modelVersion,
      created_at: row.createdAt.toISOString(),
      oral_photo_id: row.oralPhotoId,
      model_figures: recorded === undefined ? null : { ...recorded, image_kind: row.imageKind },
    };
  }
}
