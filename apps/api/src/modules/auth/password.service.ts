import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { dictionary } from '@zxcvbn-ts/language-common';
import { BadRequest } from '#api/domain-errors';

const commonPasswords = new Set(dictionary['passwords-common']);

export const commonPasswordMessage =
  'This password is too common and easy to guess. Please choose another one.';

export function isCommonPassword(password: string): boolean {
  return commonPasswords.has(password.toLowerCase());
}

/** Rejects a password found in the common-passwords list (length is checked by the schema). */
export function assertAcceptablePassword(password: string): void {
  if (isCommonPassword(password)) {
    throw new BadRequest(commonPasswordMessage, { password: [commonPasswordMessage] });
  }
}

/**
 * argon2id (the library's default algorithm) with the OWASP minimum: 19 MiB, 2 passes, 1 lane.
 */
const hashOptions = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export class PasswordService {
  private dummyHash: Promise<string> | undefined;

  hash(password: string): Promise<string> {
    return hash(password, hashOptions);
  }

  /** A member without a password (signed up through a social account) gets "wrong password",
   *  after the time a real check takes. */
  async verify(passwordHash: string | null, password: string): Promise<boolean> {
    if (passwordHash === null) {
      await this.verifyAgainstDummy(password);
      return false;
    }
    return verify(passwordHash, password);
  }

  /** Spends the time of a real check, so an unknown e-mail is not answered faster. */
  async verifyAgainstDummy(password: string): Promise<void> {
    this.dummyHash ??= this.hash(randomBytes(16).toString('base64url'));
    await verify(await this.dummyHash, password);
  }
}
