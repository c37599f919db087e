/** Small helpers to drive many operations concurrently and count how they ended. */

/** Runs `task(i)` for i in [from, to) with at most `concurrency` at a time. */
export async function runPool(
  from: number,
  to: number,
  concurrency: number,
  task: (i: number) => Promise<void>,
): Promise<void> {
  let next = from;
  const worker = async () => {
    while (next < to) {
      const i = next++;
      await task(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, to - from) }, worker));
}

/** Tallies answers by status (0 = no answer) for the summary. */
export class StatusTally {
  readonly byStatus = new Map<number, number>();

  record(status: number): void {
    this.byStatus.set(status, (this.byStatus.get(status) ?? 0) + 1);
  }

  count(predicate: (status: number) => boolean): number {
    let n = 0;
    for (const [status, count] of this.byStatus) if (predicate(status)) n += count;
    return n;
  }

  toString(): string {
    return [...this.byStatus]
      .sort(([a], [b]) => a - b)
      .map(([status, count]) => `${status || 'none'}×${count}`)
      .join(' ');
  }
}
