/**
 * Every test gets one more try when it fails, and the first failure is printed all the same
 * (`logErrorsBeforeRetry`), so a test that passes only on its second try stays visible in the
 * output. The tests run against real infrastructure on a shared two-core machine; a test that
 * fails twice fails the run.
 */
jest.retryTimes(1, { logErrorsBeforeRetry: true });
