/** Counts attempts per key in a fixed window; `allowed` is false once the limit is passed. */
export interface AttemptLimiter {
  hit(
    key: string,
    limit: number,
    windowSeconds: number,
  ): Promise<{ allowed: boolean; retryAfterSeconds: number }>;
  /** Forgets the attempts counted under the key (a successful sign-in resets its account's count). */
  reset(key: string): Promise<void>;
  /** Takes back one attempt counted under the key (a success that must not count as a failure). */
  undo(key: string): Promise<void>;
}
