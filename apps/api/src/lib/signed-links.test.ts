import { describe, expect, it } from 'vitest';
import type { Clock } from '../clock';
import {
  InvalidSignedLink,
  SignedLinks,
  contentDisposition,
  filesPath,
  type LinkRejection,
  type LinkedFile,
} from './signed-links';

const secret = 'a-test-secret-of-at-least-32-bytes-length';
const start = new Date('2025-03-01T10:00:00.000Z');

class FakeClock implements Clock {
  constructor(public current: Date) {}
  now(): Date {
    return this.current;
  }
}

const photo: LinkedFile = {
  key: 'users/4f1c/oral-photo/9a2b.jpg',
  contentType: 'image/jpeg',
  disposition: 'inline',
  fileName: 'X-ray 2025-03-01.jpg',
};

/** What the files route receives: the decoded path after /api/files/ and the query. */
function parse(link: string): { key: string; query: Record<string, string> } {
  const url = new URL(link, 'http://localhost');
  expect(url.pathname.startsWith(filesPath)).toBe(true);
  return {
    key: decodeURIComponent(url.pathname.slice(filesPath.length)),
    query: Object.fromEntries(url.searchParams),
  };
}

function rejection(action: () => unknown): LinkRejection | undefined {
  try {
    action();
  } catch (error) {
    if (error instanceof InvalidSignedLink) return error.reason;
    throw error;
  }
  return undefined;
}

function links(clock = new FakeClock(start), ttlSeconds?: number, roundSeconds?: number) {
  return new SignedLinks({ secret, clock, ttlSeconds, roundSeconds });
}

describe('SignedLinks', () => {
  it('signs a link that verifies back to the same file', () => {
    const signer = links();
    const { key, query } = parse(signer.sign(photo));
    const verified = signer.verify(key, query);
    expect(verified).toEqual({ ...photo, expiresAt: new Date('2025-03-01T10:04:00.000Z') });
  });

  it('has the documented form', () => {
    const link = links().sign(photo);
    expect(link).toMatch(
      /^\/api\/files\/users\/4f1c\/oral-photo\/9a2b\.jpg\?exp=\d+&type=image%2Fjpeg&disp=inline&name=X-ray%202025-03-01\.jpg&sig=[\w-]{43}$/,
    );
  });

  it('rounds the expiry up so that links signed close together are identical', () => {
    const firstSigned = new Date('2025-03-01T10:00:01.000Z');
    const clock = new FakeClock(firstSigned);
    const signer = links(clock);
    const first = signer.sign(photo);
    clock.current = new Date(firstSigned.getTime() + 58_000);
    expect(signer.sign(photo)).toBe(first);
    clock.current = new Date(firstSigned.getTime() + 60_000);
    expect(signer.sign(photo)).not.toBe(first);
  });

  it('lives at most 5 minutes by default', () => {
    for (const second of [0, 1, 30, 59]) {
      const clock = new FakeClock(new Date(start.getTime() + second * 1000 + 1));
      const signer = links(clock);
      const { key, query } = parse(signer.sign(photo));
      expect(Number(query.exp) * 1000 - clock.current.getTime()).toBeLessThanOrEqual(300_000);
      clock.current = new Date(clock.current.getTime() + 300_000);
      expect(rejection(() => signer.verify(key, query))).toBe('expired');
    }
  });

  it('lives at least the lifetime and at most the lifetime plus the rounding', () => {
    const clock = new FakeClock(new Date('2025-03-01T10:00:01.000Z'));
    const { query } = parse(links(clock, 600, 300).sign(photo));
    const expiresAt = Number(query.exp) * 1000;
    expect(expiresAt - clock.current.getTime()).toBeGreaterThanOrEqual(600_000);
    expect(expiresAt - clock.current.getTime()).toBeLessThanOrEqual(900_000);
  });

  it('lives until the moment it is given, days ahead (a data export)', () => {
    const clock = new FakeClock(start);
    const signer = links(clock);
    const until = new Date(start.getTime() + 7 * 24 * 3600_000);
    const { key, query } = parse(signer.sign(photo, until));
    clock.current = new Date(until.getTime() - 1);
    expect(signer.verify(key, query).expiresAt).toEqual(until);
    clock.current = until;
    expect(rejection(() => signer.verify(key, query))).toBe('expired');
  });

  it('is valid until the last millisecond before its expiry and expired from then on', () => {
    const clock = new FakeClock(start);
    const signer = links(clock);
    const { key, query } = parse(signer.sign(photo));
    const expiresAt = Number(query.exp) * 1000;

    clock.current = new Date(expiresAt - 1);
    expect(rejection(() => signer.verify(key, query))).toBeUndefined();
    clock.current = new Date(expiresAt);
    expect(rejection(() => signer.verify(key, query))).toBe('expired');
  });

  it('refuses a link whose expiry was pushed back, even before the original expiry', () => {
    const signer = links();
    const { key, query } = parse(signer.sign(photo));
    const later = { ...query, exp: String(Number(query.exp) + 3600) };
    expect(rejection(() => signer.verify(key, later))).toBe('tampered');
  });

  it.each([
    ['the key', (key: string, query: Record<string, string>) => ({ key: `${key}x`, query })],
    [
      'the key of another user',
      (_key: string, query: Record<string, string>) => ({
        key: 'users/0000/oral-photo/9a2b.jpg',
        query,
      }),
    ],
    [
      'the content type',
      (key: string, query: Record<string, string>) => ({
        key,
        query: { ...query, type: 'text/html' },
      }),
    ],
    [
      'the disposition',
      (key: string, query: Record<string, string>) => ({
        key,
        query: { ...query, disp: 'attachment' },
      }),
    ],
    [
      'the file name',
      (key: string, query: Record<string, string>) => ({
        key,
        query: { ...query, name: 'other.jpg' },
      }),
    ],
    [
      'one character of the signature',
      (key: string, query: Record<string, string>) => ({
        key,
        query: {
          ...query,
          sig: `${query.sig?.startsWith('A') ? 'B' : 'A'}${query.sig?.slice(1) ?? ''}`,
        },
      }),
    ],
    [
      'a shortened signature',
      (key: string, query: Record<string, string>) => ({
        key,
        query: { ...query, sig: query.sig?.slice(0, 20) ?? '' },
      }),
    ],
    [
      'an empty signature',
      (key: string, query: Record<string, string>) => ({
        key,
        query: { ...query, sig: '' },
      }),
    ],
  ])('refuses a link with a changed %s as tampered', (_part, change) => {
    const signer = links();
    const original = parse(signer.sign(photo));
    const { key, query } = change(original.key, original.query);
    expect(rejection(() => signer.verify(key, query))).toBe('tampered');
  });

  it('refuses a link signed with another secret', () => {
    const other = new SignedLinks({
      secret: 'another-secret-that-is-32-bytes-long!!',
      clock: new FakeClock(start),
    });
    const { key, query } = parse(other.sign(photo));
    expect(rejection(() => links().verify(key, query))).toBe('tampered');
  });

  it.each([
    ['without a signature', { sig: undefined }],
    ['without an expiry', { exp: undefined }],
    ['with a non-numeric expiry', { exp: '17e9' }],
    ['with an unknown disposition', { disp: 'download' }],
    ['with a repeated parameter', { name: ['a.jpg', 'b.jpg'] }],
  ])('refuses a link %s as malformed', (_case, change) => {
    const signer = links();
    const { key, query } = parse(signer.sign(photo));
    expect(rejection(() => signer.verify(key, { ...query, ...change }))).toBe('malformed');
  });

  it('answers with a 403 problem the user can act on', () => {
    const error = new InvalidSignedLink('expired');
    expect(error.status).toBe(403);
    expect(error.detail).toBe('This file link is invalid or has expired. Please reload the page.');
  });

  it('keeps names in any script', () => {
    const signer = links();
    const file = { ...photo, fileName: 'Röntgen 歯 🦷.pdf', disposition: 'attachment' as const };
    const { key, query } = parse(signer.sign(file));
    expect(signer.verify(key, query).fileName).toBe('Röntgen 歯 🦷.pdf');
  });

  it('keeps names with the characters a query gives meaning to', () => {
    const signer = links();
    const fileName = "Bill + 50% (Dr. O'Neil) #2 a=b&c?d ~!*.pdf";
    const { key, query } = parse(signer.sign({ ...photo, fileName }));
    expect(signer.verify(key, query).fileName).toBe(fileName);
  });

  it('encodes the characters of a key that a path or query gives meaning to', () => {
    const signer = links();
    const key = "users/4f1c/records/50% a#b?c é+(1)~!*'.pdf";
    const link = signer.sign({ ...photo, key });
    expect(link.slice(0, link.indexOf('?'))).toBe(
      "/api/files/users/4f1c/records/50%25%20a%23b%3Fc%20%C3%A9%2B(1)~!*'.pdf",
    );
    const parsed = parse(link);
    expect(parsed.key).toBe(key);
    expect(signer.verify(parsed.key, parsed.query).key).toBe(key);
  });

  it.each(['line\nbreak.pdf', '', 'x'.repeat(256), 'lone\ud800surrogate.pdf'])(
    'refuses to sign the file name %j',
    (fileName) => {
      expect(() => links().sign({ ...photo, fileName })).toThrow();
    },
  );

  it('needs a secret of at least 32 bytes', () => {
    expect(() => new SignedLinks({ secret: 'short' })).toThrow(/32 bytes/);
  });
});

describe('contentDisposition', () => {
  it('gives plain names as they are', () => {
    expect(contentDisposition('attachment', 'scan.pdf')).toBe(
      `attachment; filename="scan.pdf"; filename*=UTF-8''scan.pdf`,
    );
  });

  it('gives other names an ASCII fallback and the exact UTF-8 name', () => {
    expect(contentDisposition('inline', 'Röntgen "1" (a).jpg')).toBe(
      `inline; filename="R_ntgen _1_ (a).jpg"; filename*=UTF-8''R%C3%B6ntgen%20%221%22%20%28a%29.jpg`,
    );
  });
});
