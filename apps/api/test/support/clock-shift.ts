import type { TokenPair } from '@dental/contracts';
import type { TestClock } from '../test-clock';

interface SignsIn {
  login(member: { email: string; password: string }): Promise<TokenPair>;
}

/**
 * Moves the shared test clock by `shift` for `work`, then back, so other tests keep their "now".
 * Access tokens expire as the clock moves, so the members sign in again on each side.
 */
export async function atClockShift<T>(
  clock: TestClock,
  factory: SignsIn,
  shift: number,
  members: readonly { email: string; password: string; tokens: TokenPair }[],
  work: () => Promise<T>,
): Promise<T> {
  const signIn = () =>
    Promise.all(
      members.map(async (member) => {
        member.tokens = await factory.login(member);
      }),
    );
  clock.advance(shift);
  try {
    await signIn();
    return await work();
  } finally {
    clock.advance(-shift);
    await signIn();
  }
}
