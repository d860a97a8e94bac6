import { tooManyPixelsMessage } from '@dental/contracts';
import { DomainError } from '#api/domain-errors';

/** A file over its size limit; `detail` is the image message of docs/product/records.md#uploads. */
export class PayloadTooLarge extends DomainError {
  readonly status = 413;
}

/** A file whose bytes are not one of the accepted types, whatever its name or claimed type. */
export class UnsupportedMediaType extends DomainError {
  readonly status = 415;

  /** @param cause the decoder's error, kept for logs when an image cannot be read */
  constructor(detail: string, cause?: unknown) {
    super(detail);
    this.cause = cause;
  }
}

/** An image wider × higher than `maxPixels` (docs/decisions/upload-decoding-limits.md). */
export function tooManyPixels(maxPixels: number): PayloadTooLarge {
  return new PayloadTooLarge(tooManyPixelsMessage(maxPixels));
}
