import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import { Forbidden } from '../domain-errors';
import { systemClock, type Clock } from '../clock';

/** Where signed file links are served; the route owns `${filesPath}*`. */
export const filesPath = '/api/files/';

export type Disposition = 'inline' | 'attachment';

/** What a link lets its holder fetch, and how the response presents it. */
export interface LinkedFile {
  /** Blob store key. */
  key: string;
  contentType: string;
  disposition: Disposition;
  /** Name offered to the browser in Content-Disposition. */
  fileName: string;
}

export interface VerifiedLink extends LinkedFile {
  expiresAt: Date;
}

export type LinkRejection = 'malformed' | 'tampered' | 'expired';

/** A link that was altered, forged, cut short or has expired: answered with 403. */
export class InvalidSignedLink extends Forbidden {
  constructor(readonly reason: LinkRejection) {
    super('This file link is invalid or has expired. Please reload the page.');
  }
}

export interface SignedLinksOptions {
  /** At least 32 bytes; the same in every API process. */
  secret: string | Uint8Array;
  /** Shortest lifetime of a link; default 4 minutes. */
  ttlSeconds?: number;
  /**
   * Expiry is rounded up to a multiple of this, so that lists fetched again within that window
   * carry the same links and the browser can reuse the images it already has; default 1 minute.
   * Lifetime plus rounding is the longest a link lives: 5 minutes by default.
   */
  roundSeconds?: number;
  clock?: Clock;
}

const version = 'v1';
const signatureLength = 32;
// Content types and file names are printable: control characters would corrupt a header and a
// lone surrogate cannot be percent-encoded.
const printable = /^[\x20-\x7e\u{a0}-\u{d7ff}\u{e000}-\u{10ffff}]{1,255}$/u;
// A key of only these characters reads the same after encodeURIComponent of each segment.
const unescapedKey = /^[\w\-.!~*'()/]*$/;

/**
 * Short-lived links to stored files that work without a bearer header (an `<img>`, a download):
 * `/api/files/<key>?exp=<unix s>&type=…&disp=…&name=…&sig=<HMAC-SHA256, base64url>`, the HMAC
 * covering key, expiry, type, disposition and name (docs/decisions/signed-file-links.md).
 */
export class SignedLinks {
  /** One key object for every link: a list signs two or three per row. */
  private readonly secret: KeyObject;
  private readonly ttlSeconds: number;
  private readonly roundSeconds: number;
  private readonly clock: Clock;

  constructor(options: SignedLinksOptions) {
    const secret = Buffer.from(options.secret);
    if (secret.length < 32) throw new Error('The signed-link secret needs at least 32 bytes');
    this.secret = createSecretKey(secret);
    this.ttlSeconds = options.ttlSeconds ?? 4 * 60;
    this.roundSeconds = options.roundSeconds ?? 60;
    this.clock = options.clock ?? systemClock;
  }

  /**
   * The path and query of a link to the file, valid for at least the configured lifetime, or
   * until `expiresAt` when given (a data export's link lives days, not minutes).
   */
  sign(file: LinkedFile, expiresAt?: Date): string {
    return this.signAt(filesPath, file, expiresAt);
  }

  /** The same link served under another path: a share's file links (share-file-links.md). */
  signAt(base: string, file: LinkedFile, expiresAt?: Date): string {
    if (!printable.test(file.contentType) || !printable.test(file.fileName)) {
      throw new Error('Content type and file name must be 1 to 255 printable characters');
    }
    const earliest = Math.ceil(this.clock.now().getTime() / 1000) + this.ttlSeconds;
    const expires =
      expiresAt === undefined
        ? Math.ceil(earliest / this.roundSeconds) * this.roundSeconds
        : Math.floor(expiresAt.getTime() / 1000);
    // Only the type and the name need encoding: the expiry is digits, the disposition a word and
    // the signature base64url. Written out, since a URLSearchParams per link was a measurable part
    // of a long list's answer.
    const signature = this.mac(file, expires).digest('base64url');
    const query = `exp=${String(expires)}&type=${encodeURIComponent(file.contentType)}&disp=${file.disposition}&name=${encodeURIComponent(file.fileName)}&sig=${signature}`;
    // Stored keys are UUIDs and extensions: encoding them segment by segment only cost time.
    const path = unescapedKey.test(file.key)
      ? file.key
      : file.key.split('/').map(encodeURIComponent).join('/');
    return `${base}${path}?${query}`;
  }

  /**
   * Checks a link as the files route received it: the key from the path (decoded) and the query
   * parameters. Answers what it grants, or throws InvalidSignedLink.
   */
  verify(key: string, query: Readonly<Record<string, unknown>>): VerifiedLink {
    const { exp, type, disp, name, sig } = query;
    if (
      typeof exp !== 'string' ||
      !/^\d{1,12}$/.test(exp) ||
      typeof type !== 'string' ||
      (disp !== 'inline' && disp !== 'attachment') ||
      typeof name !== 'string' ||
      typeof sig !== 'string'
    ) {
      throw new InvalidSignedLink('malformed');
    }
    const expires = Number(exp);
    const file: LinkedFile = { key, contentType: type, disposition: disp, fileName: name };
    const given = Buffer.from(sig, 'base64url');
    const expected = this.mac(file, expires).digest();
    // Compare in constant time; a wrong length is refused first, as timingSafeEqual requires.
    if (given.length !== signatureLength || !timingSafeEqual(given, expected)) {
      throw new InvalidSignedLink('tampered');
    }
    const expiresAt = new Date(expires * 1000);
    if (this.clock.now() >= expiresAt) throw new InvalidSignedLink('expired');
    return { ...file, expiresAt };
  }

  /** The HMAC over the link's fields, to be digested: straight to base64url when signing, which
   *  spares a Buffer per link. */
  private mac(file: LinkedFile, expires: number): ReturnType<typeof createHmac> {
    // A JSON array keeps the fields apart whatever characters they hold.
    const message = JSON.stringify([
      version,
      file.key,
      expires,
      file.contentType,
      file.disposition,
      file.fileName,
    ]);
    return createHmac('sha256', this.secret).update(message);
  }
}

/**
 * The Content-Disposition header for a linked file (RFC 6266): an ASCII fallback name for old
 * clients and the exact UTF-8 name in `filename*`.
 */
export function contentDisposition(disposition: Disposition, fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${disposition}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/** Nothing in a served file may run or load anything, whatever its bytes. */
const fileContentSecurityPolicy = "default-src 'none'; sandbox";

/** The headers every file served through a signed link is answered with. */
export function linkedFileHeaders(file: LinkedFile, size: number): Record<string, string> {
  return {
    'content-type': file.contentType,
    'content-length': String(size),
    'content-disposition': contentDisposition(file.disposition, file.fileName),
    'x-content-type-options': 'nosniff',
    // Health data: not kept by the browser after the page, nor by any cache on the way.
    'cache-control': 'no-store',
    'content-security-policy': fileContentSecurityPolicy,
    'referrer-policy': 'no-referrer',
  };
}
