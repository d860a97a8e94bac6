import { RateLimited } from '#api/domain-errors';
import type { LockPolicy, LoginFailureRepository } from './login-failures.repository';

/**
 * The lock on guesses (passwords, second-factor codes, share-link passcodes) under the configured
 * policy (docs/decisions/login-throttling.md). One, built in services.ts, serves the login's rate
 * limit, the password re-check, the second factor and the share links.
 */
export class GuessLock {
  constructor(
    private readonly failures: LoginFailureRepository,
    private readonly policy: LockPolicy,
  ) {}

  /** Throws 429 with the seconds left unless a guess for `key` may be evaluated now; the guess is
   *  counted from here on, whatever its outcome. */
  async reserve(key: string, now: Date): Promise<void> {
    const lockedUntil = await this.failures.reserveGuess(key, this.policy, now);
    if (lockedUntil !== undefined) {
      throw new RateLimited(Math.max(1, Math.ceil((lockedUntil.getTime() - now.getTime()) / 1000)));
    }
  }

  /** Evaluates one guess for `key` under its lock: reserved first (429 while locked), then
   *  `evaluate`; a right guess (a truthy answer) clears the key. Answers what `evaluate`
   *  answered. */
  async evaluate<Answer>(key: string, now: Date, evaluate: () => Promise<Answer>): Promise<Answer> {
    await this.reserve(key, now);
    const answer = await evaluate();
    if (answer) await this.failures.clear(key);
    return answer;
  }

  /** A right guess clears the key's count. */
  clear(key: string): Promise<void> {
    return this.failures.clear(key);
  }

  /** Drops the keys whose guesses are forgotten. */
  deleteForgotten(now: Date): Promise<void> {
    return this.failures.deleteForgotten(now);
  }
}
