import { attemptFromHeaders, backoffDelay, DEFAULT_RETRY_DELAYS_MS, retryDelayFor } from '../src';

describe('retryDelayFor', () => {
  it('waits the n-th delay of the schedule after the n-th failed attempt', () => {
    const schedule = [1_000, 5_000, 15_000];
    expect(retryDelayFor(1, schedule)).toBe(1_000);
    expect(retryDelayFor(2, schedule)).toBe(5_000);
    expect(retryDelayFor(3, schedule)).toBe(15_000);
  });

  it('repeats the last delay once the schedule runs out', () => {
    expect(retryDelayFor(4, [100, 200])).toBe(200);
    expect(retryDelayFor(50, [100, 200])).toBe(200);
  });

  it('starts at one second by default and grows', () => {
    expect(retryDelayFor(1)).toBe(1_000);
    expect([...DEFAULT_RETRY_DELAYS_MS]).toEqual([...DEFAULT_RETRY_DELAYS_MS].sort((a, b) => a - b));
  });

  it('refuses an empty schedule', () => {
    expect(() => retryDelayFor(1, [])).toThrow(/empty/);
  });
});

describe('backoffDelay', () => {
  const options = { initialDelayMs: 100, maxDelayMs: 5_000, jitter: 0 };

  it('doubles from the initial delay', () => {
    expect([0, 1, 2, 3].map((attempt) => backoffDelay(attempt, options))).toEqual([100, 200, 400, 800]);
  });

  it('never exceeds the cap, jitter included', () => {
    const withJitter = { ...options, jitter: 0.5 };
    for (let attempt = 0; attempt < 40; attempt++) {
      expect(backoffDelay(attempt, withJitter, () => 1)).toBeLessThanOrEqual(5_000);
      expect(backoffDelay(attempt, withJitter, () => 0)).toBeGreaterThan(0);
    }
    expect(backoffDelay(30, options)).toBe(5_000);
  });

  it('spreads delays by the jitter fraction', () => {
    const withJitter = { ...options, jitter: 0.2 };
    expect(backoffDelay(2, withJitter, () => 0)).toBe(320);
    expect(backoffDelay(2, withJitter, () => 1)).toBe(480);
  });
});

describe('attemptFromHeaders', () => {
  it('treats a message without an x-attempt header as the first attempt', () => {
    expect(attemptFromHeaders(undefined)).toBe(1);
    expect(attemptFromHeaders({})).toBe(1);
  });

  it('reads the attempt set by a scheduled retry and ignores garbage', () => {
    expect(attemptFromHeaders({ 'x-attempt': 3 })).toBe(3);
    expect(attemptFromHeaders({ 'x-attempt': '2' })).toBe(2);
    expect(attemptFromHeaders({ 'x-attempt': -1 })).toBe(1);
    expect(attemptFromHeaders({ 'x-attempt': 'x' })).toBe(1);
  });
});
