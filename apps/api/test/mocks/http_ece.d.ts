// http_ece ships no types; this covers the decryption the local push service uses.
declare module 'http_ece' {
  import type { ECDH } from 'node:crypto';

  interface DecryptParams {
    version: 'aes128gcm';
    /** The receiver's (the browser's) ECDH key. */
    privateKey: ECDH;
    /** The browser's 16-byte auth secret, base64url. */
    authSecret: string;
  }

  export function decrypt(buffer: Buffer, params: DecryptParams): Buffer;
}
