/** Pure timing rules, kept apart from the I/O so they can be unit tested without a broker. */

/** Default consumer retry delays: the n-th retry waits `DEFAULT_RETRY_DELAYS_MS[n-1]` (last one repeats). */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [1_000, 5_000, 15_000, 60_000];

/**
 * Delay before redelivering a message whose `failedAttempt`-th attempt (1-based) just failed.
 * Past the end of the schedule the last delay repeats, so a short schedule still works with a
 * large `maxAttempts`.
 */
export function retryDelayFor(
  failedAttempt: number,
  schedule: readonly number[] = DEFAULT_RETRY_DELAYS_MS,
): number {
  if (schedule.length === 0) throw new Error('retry delay schedule must not be empty');
  const index = Math.min(Math.max(1, Math.floor(failedAttempt)), schedule.length) - 1;
  return Math.max(0, Math.round(schedule[index]!));
}

export interface BackoffOptions {
  initialDelayMs: number;
  maxDelayMs: number;
  /** 0..1; spreads reconnect attempts of many replicas so they do not hit a restarted broker together. */
  jitter?: number;
}

/**
 * Capped exponential backoff: initial * 2^attempt, never above maxDelayMs (jitter included).
 * `attempt` is 0 for the first retry. `random` is injectable for deterministic tests.
 */
export function backoffDelay(
  attempt: number,
  options: BackoffOptions,
  random: () => number = Math.random,
): number {
  const jitter = Math.min(1, Math.max(0, options.jitter ?? 0.2));
  // Cap the base below the maximum so that adding jitter can never exceed maxDelayMs.
  const cappedBase = options.maxDelayMs / (1 + jitter);
  const base = Math.min(cappedBase, options.initialDelayMs * 2 ** Math.max(0, attempt));
  const offset = base * jitter * (random() * 2 - 1);
  return Math.max(0, Math.min(options.maxDelayMs, Math.round(base + offset)));
}

/**
 * Which attempt a delivery is, from the `x-attempt` header the consumer sets when it schedules a
 * retry. Missing or malformed headers mean a first delivery.
 */
export function attemptFromHeaders(headers: Record<string, unknown> | undefined): number {
  const raw = headers?.['x-attempt'];
  const value = typeof raw === 'number' ? raw : typeof raw === 'string' ? Number(raw) : NaN;
  return Number.isInteger(value) && value >= 1 ? value : 1;
}
