import type { User } from './user';

/**
 * Sessions ended at `at` end every token whose whole-second `iat` is not after it: the first second
 * in which new sessions count again is the next whole second (`at` itself when it is one).
 */
export function nextWholeSecond(at: Date): Date {
  return new Date(Math.ceil(at.getTime() / 1000) * 1000);
}

/** Waits until the wall clock reaches `instant`; a timer may fire a millisecond early, so re-check. */
async function waitUntil(instant: Date): Promise<void> {
  for (let wait = instant.getTime() - Date.now(); wait > 0; wait = instant.getTime() - Date.now())
    await new Promise((resolve) => setTimeout(resolve, wait));
}

/**
 * Right after a password reset, waits for the second from which the user's sessions count again
 * (< 1 s), or a new session would carry the same whole-second `iat` as the ended ones.
 */
export async function sessionsCountAgain(user: Pick<User, 'sessionsValidAfter'>): Promise<void> {
  if (user.sessionsValidAfter) await waitUntil(nextWholeSecond(user.sessionsValidAfter));
}
