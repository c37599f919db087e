/** Counts attempts per key in a fixed window; `allowed` is false once the limit is passed. */
export interface AttemptLimiter {
  hit(
    key: string,
    limit: number,
    windowSeconds: number,
  ): Promise<{ allowed: boolean; retryAfterSeconds: number }>;
}
