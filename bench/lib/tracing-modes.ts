/**
 * What tracing costs: `BENCH_TRACING=on|off|both` (default off) for bench:gateway and bench:booking.
 *
 *   on    every process of the bench traces and exports to OTEL_EXPORTER_OTLP_ENDPOINT (default
 *         http://127.0.0.1:4318, the Jaeger `npm start` runs; `npx tsx scripts/infra-up.ts --jaeger`
 *         brings it up alone)
 *   off   no tracing (OTEL_SDK_DISABLED=true, whatever the environment says)
 *   both  the bench runs off then on, BENCH_PAIRS times (default 3), each in a process of its own
 *         (instrumentation cannot be taken back once loaded), and prints the medians side by side
 *         (target: tracing on keeps ≥ 85 % of the throughput with tracing off)
 *
 * A runner prints one `BENCH_SUMMARY {json}` line with its headline figures; `both` reads them.
 */
import { spawn } from 'node:child_process';
import { startTracing } from '@crm/server-kit/tracing';
import { commandsCpuSeconds } from './process-cpu';

export type TracingMode = 'on' | 'off';

export function tracingMode(): TracingMode | 'both' {
  const value = (process.env.BENCH_TRACING ?? 'off').trim().toLowerCase();
  if (value === 'on' || value === 'both') return value;
  return 'off';
}

export function tracingEndpoint(): string {
  return process.env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || 'http://127.0.0.1:4318';
}

/** Environment for the bench's child processes (gateway, services) in this run's mode. */
export function tracingEnv(): Record<string, string> {
  return tracingMode() === 'on'
    ? { OTEL_SDK_DISABLED: 'false', OTEL_EXPORTER_OTLP_ENDPOINT: tracingEndpoint() }
    : { OTEL_SDK_DISABLED: 'true' };
}

/** For a bench that runs the product in its own process: start tracing there (mode `on` only). */
export function startBenchTracing(name: string): void {
  if (tracingMode() === 'on') startTracing(name, { endpoint: tracingEndpoint() });
}

/** Warns when the collector does not answer (spans would be dropped and the cost understated). */
export async function checkCollector(): Promise<void> {
  if (tracingMode() !== 'on') return;
  const url = `${tracingEndpoint().replace(/\/+$/, '')}/v1/traces`;
  try {
    await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    console.log(`tracing: on, exporting to ${url}`);
  } catch {
    console.log(`warning: tracing is on but nothing answers at ${url}; spans are dropped`);
  }
}

export function printSummary(figures: Record<string, number>): void {
  console.log(`BENCH_SUMMARY ${JSON.stringify(figures)}`);
}

function runMode(mode: TracingMode): Promise<{ code: number; summary?: Record<string, number> }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
      env: { ...process.env, BENCH_TRACING: mode },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let summary: Record<string, number> | undefined;
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk);
      buffered += chunk.toString('utf8');
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        if (line.startsWith('BENCH_SUMMARY ')) summary = JSON.parse(line.slice(14)) as Record<string, number>;
      }
    });
    child.on('exit', (code) => {
      // A process the run started and left behind may hold its output open: stop reading it.
      child.stdout.destroy();
      resolve({ code: code ?? 1, summary });
    });
  });
}

/** The trace collector's command names: the Jaeger `npm start` runs (it shares the cores here). */
const COLLECTOR_COMMANDS = ['jaeger'];

function medianOf(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * Runs the bench BENCH_PAIRS times (default 3) with tracing off then on, each run in a process of its
 * own, and prints the median of each summary figure for both (one burst of outside load moves one
 * run, not the median), and the CPU the collector spent while tracing was on: on this 2-core machine
 * it competes with what is measured, which a collector on its own host would not. `throughput` names
 * the figure (higher is better) the ≤ 15 % cost target applies to. Answers the exit code.
 */
export async function runBothModes(throughput: string): Promise<number> {
  const pairs = Math.max(1, Number(process.env.BENCH_PAIRS ?? 3));
  const runs: Record<TracingMode, Record<string, number>[]> = { off: [], on: [] };
  let collectorSeconds = 0;
  let code = 0;
  for (let pair = 1; pair <= pairs; pair++) {
    for (const mode of ['off', 'on'] as const) {
      console.log(`\n=== tracing ${mode} (${pair} of ${pairs}) ===`);
      const collectorBefore = commandsCpuSeconds(COLLECTOR_COMMANDS) ?? 0;
      const run = await runMode(mode);
      if (mode === 'on') collectorSeconds += (commandsCpuSeconds(COLLECTOR_COMMANDS) ?? 0) - collectorBefore;
      if (run.code !== 0) code = run.code;
      if (!run.summary) {
        console.log('\ntracing cost: a run printed no summary; see above');
        return 1;
      }
      runs[mode].push(run.summary);
    }
  }
  const median = (mode: TracingMode, key: string) => medianOf(runs[mode].map((figures) => figures[key] ?? 0));
  console.log(`\n| figure (median of ${pairs}) | tracing off | tracing on | on / off |\n|---|---|---|---|`);
  for (const key of Object.keys(runs.off[0]!)) {
    const [a, b] = [median('off', key), median('on', key)];
    const ratio = a !== 0 ? `${((b / a) * 100).toFixed(1)} %` : 'n/a';
    console.log(`| ${key} | ${a.toFixed(1)} | ${b.toFixed(1)} | ${ratio} |`);
  }
  console.log(
    `collector (Jaeger) CPU while tracing was on: ${collectorSeconds.toFixed(1)} s over ${pairs} runs`,
  );
  const each = runs.on.map((on, i) => 1 - (on[throughput] ?? 0) / (runs.off[i]![throughput] ?? 1));
  const cost = 1 - median('on', throughput) / median('off', throughput);
  const met = cost <= 0.15;
  console.log(
    `\ntracing cost: ${(cost * 100).toFixed(1)} % of ${throughput} (each pair: ${each
      .map((c) => `${(c * 100).toFixed(1)} %`)
      .join(', ')}; target ≤ 15 %) → ${met ? 'met' : 'NOT met'}`,
  );
  return met ? code : 1;
}
