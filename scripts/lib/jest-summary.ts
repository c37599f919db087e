import path from 'node:path';

/** The parts of jest's --json output that the summary reads. */
export interface AssertionResult {
  fullName?: string;
  title: string;
  ancestorTitles?: string[];
  status: string;
}

export interface TestFileResult {
  name: string;
  status: string;
  message?: string;
  assertionResults?: AssertionResult[];
}

export interface JestResults {
  success?: boolean;
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests?: number;
  numTotalTests: number;
  numFailedTestSuites?: number;
  numRuntimeErrorTestSuites?: number;
  testResults?: TestFileResult[];
}

export interface JestExit {
  code: number;
  signal: string | null;
}

/** The closing line CI reads: `tests: N passed, N failed, N skipped`. */
export function summaryLine(passed: number, failed: number, skipped: number): string {
  return `tests: ${passed} passed, ${failed} failed, ${skipped} skipped`;
}

function stripAnsi(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;]*m/g, '');
}

/**
 * Lines of the summary (failed tests, files that failed to run, then the closing line, always
 * last) and the exit code: non-zero on any failure, or when jest failed or wrote no results.
 */
export function summarize(
  results: JestResults | null,
  jestExit: JestExit,
  opts: { root: string; resultsFile: string },
): { lines: string[]; exitCode: number } {
  const relPath = (file: string): string => path.relative(opts.root, file) || file;
  if (!results) {
    const how = jestExit.signal ? `was killed by ${jestExit.signal}` : `exited with code ${jestExit.code}`;
    return {
      lines: [`jest ${how} and wrote no results (${opts.resultsFile})`, summaryLine(0, 0, 0)],
      exitCode: jestExit.code === 0 ? 1 : jestExit.code,
    };
  }
  const lines: string[] = [];
  const failedTests: string[] = [];
  const brokenFiles: string[] = [];
  for (const file of results.testResults ?? []) {
    const failedHere = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
    for (const a of failedHere) {
      const name = a.fullName || [...(a.ancestorTitles ?? []), a.title].join(' › ');
      failedTests.push(`  ✕ ${relPath(file.name)} › ${name}`);
    }
    if (file.status === 'failed' && failedHere.length === 0) {
      const firstLine =
        stripAnsi(file.message ?? '')
          .split('\n')
          .map((l) => l.trim())
          .find((l) => l.length > 0 && !l.startsWith('●')) ?? 'failed to run';
      brokenFiles.push(`  ✕ ${relPath(file.name)}: ${firstLine}`);
    }
  }
  if (failedTests.length > 0) lines.push('failed tests:', ...failedTests);
  if (brokenFiles.length > 0) lines.push('test files that failed to run:', ...brokenFiles);
  if (results.numTotalTests === 0) lines.push('jest ran no tests');
  const failed = results.numFailedTests;
  const skipped = results.numPendingTests + (results.numTodoTests ?? 0);
  const ok =
    jestExit.code === 0 &&
    failed === 0 &&
    brokenFiles.length === 0 &&
    (results.numRuntimeErrorTestSuites ?? 0) === 0 &&
    results.success !== false;
  if (!ok && failed === 0 && brokenFiles.length === 0) {
    lines.push(`jest exited with code ${jestExit.code}${jestExit.signal ? ` (${jestExit.signal})` : ''}`);
  }
  lines.push(summaryLine(results.numPassedTests, failed, skipped));
  return { lines, exitCode: ok ? 0 : jestExit.code || 1 };
}
