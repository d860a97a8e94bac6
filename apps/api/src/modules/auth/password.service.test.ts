import { describe, expect, it } from 'vitest';
import { BadRequest } from '#api/domain-errors';
import {
  assertAcceptablePassword,
  commonPasswordMessage,
  isCommonPassword,
  PasswordService,
} from './password.service';

describe('common passwords', () => {
  it.each(['password', 'PASSWORD', '12345678', 'qwerty123', 'iloveyou', 'sunshine'])(
    'knows %j',
    (password) => {
      expect(isCommonPassword(password)).toBe(true);
    },
  );

  it.each(['Molar-4f9c2e1a', 'correct horse battery staple', 'brush-twice-daily-77'])(
    'lets %j through',
    (password) => {
      expect(isCommonPassword(password)).toBe(false);
      expect(() => {
        assertAcceptablePassword(password);
      }).not.toThrow();
    },
  );

  it('refuses a common one with a field error on password', () => {
    expect(() => {
      assertAcceptablePassword('password1');
    }).toThrow(BadRequest);
    try {
      assertAcceptablePassword('password1');
    } catch (error) {
      expect(error).toMatchObject({
        detail: commonPasswordMessage,
        errors: { password: [commonPasswordMessage] },
      });
    }
  });
});

describe('PasswordService', () => {
  const passwords = new PasswordService();

  it('hashes with argon2id, salted, and verifies only the right password', async () => {
    const first = await passwords.hash('Molar-4f9c2e1a');
    const second = await passwords.hash('Molar-4f9c2e1a');
    expect(first).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(first).not.toBe(second);
    await expect(passwords.verify(first, 'Molar-4f9c2e1a')).resolves.toBe(true);
    await expect(passwords.verify(first, 'Molar-4f9c2e1b')).resolves.toBe(false);
  });

  it('checks against a dummy hash without failing', async () => {
    await expect(passwords.verifyAgainstDummy('anything')).resolves.toBeUndefined();
  });
});
