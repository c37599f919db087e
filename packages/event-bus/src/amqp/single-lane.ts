/**
 * Runs tasks one at a time, in arrival order, for every subscription that shares the lane.
 *
 * Why: a handler whose side effect cannot be taken back or recognised downstream (an e-mail
 * handed to SMTP) repeats that effect when its process dies after the effect and before the event
 * is recorded as processed. Every handler in flight at that moment is repeated, so concurrency
 * multiplies duplicates. Sharing one lane keeps it to at most one per crash.
 */
export class SingleLane {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task);
    // The next task waits for this one to settle, whatever its outcome.
    this.tail = result.catch(() => undefined);
    return result;
  }
}
