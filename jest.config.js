/**
 * `npm test` runs four phases, picked here from JEST_PHASE:
 *   main  (default) every `*.test.ts` of the back end;
 *   e2e   browser tests `e2e/**\/*.e2e.test.ts` in real Chromium against the built frontends
 *         (scripts/run-tests.ts builds the frontends first and runs two files at a time, E2E_WORKERS);
 *   fault tests named `*.fault.test.ts`, which stop shared infrastructure (RabbitMQ, Redis) on
 *         purpose, one at a time, after all the others;
 *   bench the benchmarks' smoke runs `bench/**\/*.test.ts` (small sizes, no timing asserted), last.
 */
const phase = process.env.JEST_PHASE || 'main';
const faultPhase = phase === 'fault';
const e2ePhase = phase === 'e2e';
const benchPhase = phase === 'bench';

/**
 * One jest run for the whole back end. Integration tests share the real infrastructure that
 * `npm test` brings up; each test file isolates itself with its own database / queue names.
 * @type {import('jest').Config}
 */
module.exports = {
  testEnvironment: 'node',
  roots: e2ePhase
    ? ['<rootDir>/e2e']
    : benchPhase
      ? ['<rootDir>/bench']
      : [
          '<rootDir>/packages',
          '<rootDir>/services',
          '<rootDir>/gateway',
          '<rootDir>/scripts',
          '<rootDir>/frontends',
          '<rootDir>/system-tests',
        ],
  testMatch: faultPhase ? ['**/*.fault.test.ts'] : e2ePhase ? ['**/*.e2e.test.ts'] : ['**/?(*.)test.ts'],
  testPathIgnorePatterns: [
    '/node_modules/',
    '/dist/',
    ...(faultPhase || e2ePhase ? [] : ['\\.fault\\.test\\.ts$']),
  ],
  transform: {
    '^.+\\.tsx?$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.base.json', diagnostics: false }],
  },
  reporters: ['default', '<rootDir>/scripts/lib/files-in-flight-reporter.cjs'],
  setupFilesAfterEnv: ['<rootDir>/scripts/lib/jest-retry.ts'],
  maxWorkers: e2ePhase ? 1 : 2,
  testTimeout: e2ePhase ? 120000 : 30000,
};
