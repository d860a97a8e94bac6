/**
 * A loader that runs once, on first use, and gives every caller the same promise: for SDKs that
 * most starts never call (Stripe, Twilio, WebAuthn), so the server does not spend its start-up
 * importing them (docs/decisions/start-and-runtime.md).
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => (loaded ??= load());
}
