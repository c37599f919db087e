/**
 * Waiting in tests: the one polling loop (`eventually`) and the one pause (`sleep`). No imports, so
 * that tests below the harness (the event bus's) can use it without loading the harness:
 * `@crm/testing/src/polling`.
 */

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export interface PollOptions {
  /** Pause between two tries (default 100 ms). */
  intervalMs?: number;
  /**
   * A probe that throws has not met the condition yet (a queue not declared yet, a server still
   * starting); without it, the first error fails the wait, which keeps assertions made inside the
   * probe strict.
   */
  retryOnError?: boolean;
}

/**
 * Polls `probe` until it gives a value other than `undefined` or `false`, and returns that value;
 * fails after `timeoutMs` naming `what` (and the probe's last error, with `retryOnError`).
 */
export async function eventually<T>(
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 10000,
  what = 'condition',
  { intervalMs = 100, retryOnError = false }: PollOptions = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      if (!retryOnError) throw error;
      lastError = error;
    }
    if (Date.now() > deadline)
      throw new Error(
        `${what} not met within ${timeoutMs} ms${lastError ? ` (last error: ${String(lastError)})` : ''}`,
      );
    await sleep(intervalMs);
  }
}
