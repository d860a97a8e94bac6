import { ServiceUnavailable } from '#api/domain-errors';

export const decodeBusyMessage =
  'Many images are being processed right now. Please try again in a few seconds.';

/** Every decode slot and queue place is taken: 503 with Retry-After. */
export class DecodersBusy extends ServiceUnavailable {
  constructor(readonly retryAfterSeconds: number) {
    super(decodeBusyMessage);
  }
}

export interface DecodePoolOptions {
  /** Images decoded at once; default 2 (a 40-megapixel image takes about 160 MB to decode). */
  concurrency?: number;
  /** Uploads that may wait for a slot; beyond that the upload is refused at once. Default 8. */
  queueLimit?: number;
  /** Retry-After on a refusal; default 5 seconds. */
  retryAfterSeconds?: number;
}

/**
 * Bounds how many images are decoded at once, so that concurrent uploads cannot exhaust memory
 * (docs/decisions/upload-decoding-limits.md). sharp's own `concurrency` is threads per image,
 * not images at once.
 */
export class DecodePool {
  /** Images decoded at once. */
  readonly concurrency: number;
  private readonly queueLimit: number;
  private readonly retryAfterSeconds: number;
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(options: DecodePoolOptions = {}) {
    this.concurrency = options.concurrency ?? 2;
    this.queueLimit = options.queueLimit ?? 8;
    this.retryAfterSeconds = options.retryAfterSeconds ?? 5;
  }

  /** Runs `work` in a slot, after waiting for one if the queue has room; else DecodersBusy. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) {
      if (this.waiting.length >= this.queueLimit) throw new DecodersBusy(this.retryAfterSeconds);
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running += 1;
    }
    try {
      return await work();
    } finally {
      // The slot passes straight to the next waiter, so `running` stays counted for it.
      const next = this.waiting.shift();
      if (next === undefined) this.running -= 1;
      else next();
    }
  }
}
