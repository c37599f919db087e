/**
 * npm test — brings up the local infrastructure, applies the development defaults of
 * scripts/lib/dev-env.ts to unset variables (NODE_ENV is left to jest), runs jest from the repo
 * root with the root jest.config.ts (extra CLI arguments are passed through, e.g.
 * `npm test -- services/auth`), then prints a summary whose last line is
 * `tests: N passed, N failed, N skipped`.
 *
 *   --no-infra   do not bring up infrastructure (the tests then need URLs in the environment)
 *
 * Phases: main (back end), then e2e (browser tests in e2e/: the frontends are built first), then
 * fault, then bench (the benchmarks' smoke runs, bench/**\/*.test.ts: no timing asserted). The e2e
 * and bench phases are skipped when path filters are given and none names them
 * (`npm test -- services/auth`), or with SKIP_E2E=1 / SKIP_BENCH=1; `npm test -- e2e` runs only e2e.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { applyDevEnv } from './lib/dev-env';
import { ensureInfrastructure, InfrastructureError } from './lib/infra';
import { summarize, summaryLine, type JestExit, type JestResults } from './lib/jest-summary';
import { REPO_ROOT } from './lib/paths';

const RESULTS_FILE = path.join('artifacts', 'jest-results.json');
const FAULT_RESULTS_FILE = path.join('artifacts', 'jest-fault-results.json');
const E2E_RESULTS_FILE = path.join('artifacts', 'jest-e2e-results.json');
const BENCH_RESULTS_FILE = path.join('artifacts', 'jest-bench-results.json');

type Phase = 'main' | 'e2e' | 'fault' | 'bench';

/**
 * How long each phase may run before it is stopped and reported as failed, naming the files still
 * running (TEST_PHASE_MINUTES overrides them all). A whole run takes 25 to 35 minutes on two cores;
 * the limits are there so that a file that hangs fails the run instead of the CI's clock.
 */
const PHASE_MINUTES: Record<Phase, number> = { main: 15, e2e: 30, fault: 12, bench: 12 };

function phaseLimitMs(phase: Phase): number {
  const minutes = Number(process.env.TEST_PHASE_MINUTES) || PHASE_MINUTES[phase];
  return minutes * 60_000;
}

function filesInFlight(file: string): string[] {
  try {
    return fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((f) => path.relative(REPO_ROOT, f));
  } catch {
    return [];
  }
}

function runJest(args: string[], resultsFile: string, phase: Phase): Promise<JestExit> {
  const localBin = path.join(REPO_ROOT, 'node_modules', '.bin', 'jest');
  const [command, baseArgs] = fs.existsSync(localBin) ? [localBin, []] : ['npx', ['jest']];
  // --forceExit: a handle a test left open (a timer, a socket) must not keep the run waiting.
  const fullArgs = [...baseArgs, '--json', `--outputFile=${resultsFile}`, '--forceExit', ...args];
  // A phase that dies before writing its results must not be read from an earlier run's file.
  fs.rmSync(path.join(REPO_ROOT, resultsFile), { force: true });
  const inFlightFile = path.join(REPO_ROOT, 'artifacts', `jest-${phase}-in-flight.txt`);
  fs.rmSync(inFlightFile, { force: true });
  return new Promise((resolve) => {
    const env = { ...process.env, JEST_PHASE: phase, JEST_IN_FLIGHT_FILE: inFlightFile };
    // Its own process group, so that the time limit stops jest's workers too.
    const child = spawn(command, fullArgs, { cwd: REPO_ROOT, stdio: 'inherit', env, detached: true });
    // Jest runs in a group of its own, so Ctrl-C is passed on to it; this process waits for it.
    const forward = (): void => {
      try {
        process.kill(-child.pid!, 'SIGINT');
      } catch {
        // already gone
      }
    };
    process.on('SIGINT', forward);
    const limitMs = phaseLimitMs(phase);
    const watchdog = setTimeout(() => {
      const running = filesInFlight(inFlightFile);
      process.stdout.write(
        `\nrun-tests: the ${phase} phase ran past its ${limitMs / 60_000} minutes and was stopped; ` +
          `still running: ${running.length > 0 ? running.join(', ') : '(none reported)'}\n`,
      );
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }, limitMs);
    child.once('error', (err) => {
      clearTimeout(watchdog);
      console.error(`run-tests: could not start jest: ${err.message}`);
      resolve({ code: 127, signal: null });
    });
    child.once('exit', (code, signal) => {
      clearTimeout(watchdog);
      process.off('SIGINT', forward);
      resolve({ code: code ?? 1, signal });
    });
  });
}

function readResults(resultsFile: string): JestResults | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(REPO_ROOT, resultsFile), 'utf8')) as JestResults;
  } catch {
    return null;
  }
}

/** Jest options followed by a value (so the value is not taken for a path filter). */
const VALUE_OPTIONS = new Set([
  '-t',
  '--testNamePattern',
  '--shard',
  '--maxWorkers',
  '-w',
  '--selectProjects',
  '--config',
  '-c',
]);

/** Path filters among the jest arguments (positional arguments). */
function pathFilters(args: string[]): string[] {
  const filters: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    if (VALUE_OPTIONS.has(args[i])) i += 1;
    else if (!args[i].startsWith('-')) filters.push(args[i]);
  }
  return filters;
}

/** Builds every frontend workspace that has a build script (as `npm start` does). */
function buildFrontends(): Promise<number> {
  const dir = path.join(REPO_ROOT, 'frontends');
  const workspaces = fs.existsSync(dir)
    ? fs.readdirSync(dir).filter((name) => {
        try {
          const pkg = JSON.parse(fs.readFileSync(path.join(dir, name, 'package.json'), 'utf8')) as {
            scripts?: Record<string, string>;
          };
          return Boolean(pkg.scripts?.build);
        } catch {
          return false;
        }
      })
    : [];
  if (workspaces.length === 0) return Promise.resolve(0);
  process.stdout.write(`run-tests: building frontends (${workspaces.join(', ')}) for the browser tests\n`);
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', 'build', ...workspaces.map((w) => `--workspace=frontends/${w}`)], {
      cwd: REPO_ROOT,
      stdio: 'inherit',
      env: process.env,
    });
    child.once('error', () => resolve(127));
    child.once('exit', (code) => resolve(code ?? 1));
  });
}

const NO_RESULTS: JestResults = {
  success: true,
  numPassedTests: 0,
  numFailedTests: 0,
  numPendingTests: 0,
  numTotalTests: 0,
  testResults: [],
};

/** A phase that could not run (e.g. the frontend build failed), as one failed file. */
function phaseFailure(name: string, message: string): JestResults {
  return {
    success: false,
    numPassedTests: 0,
    numFailedTests: 0,
    numPendingTests: 0,
    numTotalTests: 0,
    numRuntimeErrorTestSuites: 1,
    testResults: [{ name, status: 'failed', message, assertionResults: [] }],
  };
}

/** Adds up the two phases' results; a phase that wrote nothing makes the whole run fail. */
function mergeResults(a: JestResults | null, b: JestResults | null): JestResults | null {
  if (!a || !b) return null;
  return {
    success: a.success !== false && b.success !== false,
    numPassedTests: a.numPassedTests + b.numPassedTests,
    numFailedTests: a.numFailedTests + b.numFailedTests,
    numPendingTests: a.numPendingTests + b.numPendingTests,
    numTodoTests: (a.numTodoTests ?? 0) + (b.numTodoTests ?? 0),
    numTotalTests: a.numTotalTests + b.numTotalTests,
    numRuntimeErrorTestSuites: (a.numRuntimeErrorTestSuites ?? 0) + (b.numRuntimeErrorTestSuites ?? 0),
    testResults: [...(a.testResults ?? []), ...(b.testResults ?? [])],
  };
}

function printSummary(results: JestResults | null, jestExit: JestExit): number {
  const { lines, exitCode } = summarize(results, jestExit, { root: REPO_ROOT, resultsFile: RESULTS_FILE });
  process.stdout.write(['', '──────────────── test summary ────────────────', ...lines].join('\n') + '\n');
  return exitCode;
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const skipInfra = args.includes('--no-infra');
  const jestArgs = args.filter((a) => a !== '--no-infra');

  applyDevEnv(process.env, { nodeEnv: null });

  if (!skipInfra) {
    try {
      await ensureInfrastructure();
    } catch (err) {
      const message = err instanceof InfrastructureError ? err.message : String(err);
      process.stdout.write(`run-tests: infrastructure FAILED: ${message}\n${summaryLine(0, 0, 0)}\n`);
      return 1;
    }
  }

  fs.mkdirSync(path.join(REPO_ROOT, 'artifacts'), { recursive: true });
  // Fault tests stop shared infrastructure (RabbitMQ, Redis), so they run after the others, alone.
  // (jest.config.js picks the files of each phase from JEST_PHASE.)
  const filters = pathFilters(jestArgs);
  const onlyE2e = filters.length > 0 && filters.every((f) => /e2e/.test(f));
  // `npm test -- bench` runs the bench phase only (.ci/run runs it after its compose check).
  const onlyBench = filters.length > 0 && filters.every((f) => /bench/.test(f));
  const withMain = !onlyE2e && !onlyBench;
  const withE2e =
    process.env.SKIP_E2E !== '1' && (filters.length === 0 || filters.some((f) => /e2e/.test(f)));
  const withBench =
    process.env.SKIP_BENCH !== '1' && (filters.length === 0 || filters.some((f) => /bench/.test(f)));

  const ok: JestExit = { code: 0, signal: null };
  // A filter may name only e2e or fault tests; the whole run (no filter) must find tests in every phase.
  const mainArgs = filters.length > 0 ? ['--passWithNoTests', ...jestArgs] : jestArgs;
  const main = withMain ? await runJest(mainArgs, RESULTS_FILE, 'main') : ok;
  let e2e = ok;
  let e2eResults: JestResults | null = NO_RESULTS;
  if (withE2e) {
    // Browser tests run against the built frontends, served by the gateway of each test's stack.
    // E2E_SKIP_BUILD=1 reuses the frontends/*/dist already built (while iterating on one test).
    const built = process.env.E2E_SKIP_BUILD === '1' ? 0 : await buildFrontends();
    if (built !== 0) {
      e2e = { code: built, signal: null };
      e2eResults = phaseFailure(path.join(REPO_ROOT, 'frontends'), `frontend build failed (exit ${built})`);
    } else {
      // Two browser files at a time by default: most of their time is waiting on pages and
      // e-mails, not CPU (E2E_WORKERS=1 runs them one by one).
      const workers = process.env.E2E_WORKERS ?? '2';
      e2e = await runJest(
        ['--maxWorkers', workers, '--passWithNoTests', ...jestArgs],
        E2E_RESULTS_FILE,
        'e2e',
      );
      e2eResults = readResults(E2E_RESULTS_FILE);
    }
  }
  const faults = withMain
    ? await runJest(['--runInBand', '--passWithNoTests', ...jestArgs], FAULT_RESULTS_FILE, 'fault')
    : ok;
  // The benchmarks' smoke runs scan whole collections on FerretDB: alone, last, so that they slow
  // no other test.
  const bench = withBench
    ? await runJest(['--runInBand', '--passWithNoTests', ...jestArgs], BENCH_RESULTS_FILE, 'bench')
    : ok;
  const exit = [main, e2e, faults, bench].find((r) => r.code !== 0) ?? ok;
  const mainResults = withMain ? readResults(RESULTS_FILE) : NO_RESULTS;
  const faultResults = withMain ? readResults(FAULT_RESULTS_FILE) : NO_RESULTS;
  const benchResults = withBench ? readResults(BENCH_RESULTS_FILE) : NO_RESULTS;
  const all = [mainResults, e2eResults, faultResults, benchResults].reduce(mergeResults);
  return printSummary(all, exit);
}

main().then(
  // stdout/stderr are synchronous for files and pipes on Linux, so nothing is lost by exiting.
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.stdout.write(`${summaryLine(0, 0, 0)}\n`);
    process.exit(1);
  },
);
