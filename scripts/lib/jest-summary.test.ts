import { summarize } from './jest-summary';

const opts = { root: '/repo', resultsFile: 'artifacts/jest-results.json' };

describe('test run summary', () => {
  it('ends with the counts line and lists failed tests and files that failed to run', () => {
    const { lines, exitCode } = summarize(
      {
        success: false,
        numPassedTests: 5,
        numFailedTests: 1,
        numPendingTests: 2,
        numTodoTests: 1,
        numTotalTests: 9,
        testResults: [
          {
            name: '/repo/services/auth/test/a.api.test.ts',
            status: 'failed',
            assertionResults: [{ title: 'signs in', fullName: 'auth signs in', status: 'failed' }],
          },
          {
            name: '/repo/services/x/test/b.test.ts',
            status: 'failed',
            message: '  ● Test suite failed to run\n\n  Cannot find module',
            assertionResults: [],
          },
        ],
      },
      { code: 1, signal: null },
      opts,
    );
    expect(lines.at(-1)).toBe('tests: 5 passed, 1 failed, 3 skipped');
    expect(lines).toContain('  ✕ services/auth/test/a.api.test.ts › auth signs in');
    expect(lines).toContain('  ✕ services/x/test/b.test.ts: Cannot find module');
    expect(exitCode).toBe(1);
  });

  it('fails when jest wrote no results, even if it exited 0', () => {
    const { lines, exitCode } = summarize(null, { code: 0, signal: null }, opts);
    expect(lines.at(-1)).toBe('tests: 0 passed, 0 failed, 0 skipped');
    expect(exitCode).toBe(1);
  });

  it('passes when every test passed', () => {
    const results = {
      success: true,
      numPassedTests: 3,
      numFailedTests: 0,
      numPendingTests: 0,
      numTotalTests: 3,
      testResults: [],
    };
    expect(summarize(results, { code: 0, signal: null }, opts)).toEqual({
      lines: ['tests: 3 passed, 0 failed, 0 skipped'],
      exitCode: 0,
    });
  });
});
