/**
 * A library loaded once, on first use, every caller getting the same promise: for SDKs that most
 * starts never call, or call only after start (Stripe, Twilio, WebAuthn, S3, nodemailer), so that
 * the server does not spend its start-up importing them (docs/decisions/start-and-runtime.md).
 */
export class LoadOnce<T> {
  private loading: Promise<T> | undefined;

  constructor(private readonly load: () => Promise<T>) {}

  get(): Promise<T> {
    return (this.loading ??= this.load());
  }

  /** What was loaded so far, without loading it: for closing what may never have been opened. */
  ifLoaded(): Promise<T> | undefined {
    return this.loading;
  }
}
