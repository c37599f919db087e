/**
 * How many codes an account's second factor may be tried with. The count is per account, across
 * challenges and client addresses, and every attempt is counted before its code is checked, in one
 * atomic step: twenty codes sent at once on one challenge cannot all be checked.
 */
export interface FactorAttempts {
  /**
   * Counts an attempt and answers whether it may be checked now: two slips are free, then each
   * further try waits twice as long as the one before (2 s, 4 s, … at most 5 min).
   */
  reserve(userId: string, now: Date): Promise<FactorAttempt>;
  /** A correct code: the account's count starts again. */
  clear(userId: string): Promise<void>;
}

export type FactorAttempt =
  | { allowed: true; failures: number }
  /** `locked`: too many failures; otherwise too soon after the last one (the growing delay). */
  | { allowed: false; locked: boolean; retryAfterSeconds: number };

export interface FactorGuardPolicy {
  /** Failures that lock the factor. */
  maxFailures: number;
  /** How long the lock (and the count) lasts after the last failure. */
  lockMs: number;
}
