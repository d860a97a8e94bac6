import { describe, expect, it } from 'vitest';
import { changePasswordRequest, describeBrowser } from './sessions';

describe('describeBrowser', () => {
  it.each([
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      'Chrome on Windows',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
      'Safari on iOS',
    ],
    ['Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0', 'Firefox on Linux'],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
      'Edge on macOS',
    ],
    ['curl/8.5.0', 'Unknown browser'],
    [null, 'Unknown browser'],
  ])('%s → %s', (userAgent, words) => {
    expect(describeBrowser(userAgent)).toBe(words);
  });
});

describe('changePasswordRequest', () => {
  const valid = {
    current_password: 'old one',
    password: 'Molar-fresh-1',
    confirm_password: 'Molar-fresh-1',
  };

  it('accepts a new password typed twice', () => {
    expect(changePasswordRequest.safeParse(valid).success).toBe(true);
  });

  it('tells a mismatch under the confirmation, in the sign-up words', () => {
    const result = changePasswordRequest.safeParse({ ...valid, confirm_password: 'Molar-other' });
    expect(result.error?.issues).toMatchObject([
      { path: ['confirm_password'], message: 'Password and Confirm Password should be the same.' },
    ]);
  });
});
