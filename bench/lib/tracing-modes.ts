/**
 * What tracing costs: `BENCH_TRACING=on|off|both` (default off) for bench:gateway and bench:booking.
 *
 *   on    every process of the bench traces and exports to OTEL_EXPORTER_OTLP_ENDPOINT (default
 *         http://127.0.0.1:4318, the Jaeger `npm start` runs; `npx tsx scripts/infra-up.ts --jaeger`
 *         brings it up alone)
 *   off   no tracing (OTEL_SDK_DISABLED=true, whatever the environment says)
 *   both  the bench runs twice, off then on, each in a process of its own (instrumentation cannot be
 *         taken back once loaded), and prints both figures side by side (target: tracing on keeps
 *         ≥ 85 % of the throughput with tracing off)
 *
 * A runner prints one `BENCH_SUMMARY {json}` line with its headline figures; `both` reads them.
 */
import { spawn } from 'node:child_process';
import { startTracing } from '@crm/server-kit/tracing';

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

/**
 * Runs the bench with tracing off, then on, and prints each summary figure for both. `throughput`
 * names the figure (higher is better) the ≤ 15 % cost target applies to. Answers the exit code.
 */
export async function runBothModes(throughput: string): Promise<number> {
  const results: Partial<Record<TracingMode, Record<string, number>>> = {};
  let code = 0;
  for (const mode of ['off', 'on'] as const) {
    console.log(`\n=== tracing ${mode} ===`);
    const run = await runMode(mode);
    if (run.code !== 0) code = run.code;
    results[mode] = run.summary;
  }
  const off = results.off;
  const on = results.on;
  if (!off || !on) {
    console.log('\ntracing cost: a run printed no summary; see above');
    return 1;
  }
  console.log('\n| figure | tracing off | tracing on | on / off |\n|---|---|---|---|');
  for (const key of Object.keys(off)) {
    const a = off[key]!;
    const b = on[key];
    const ratio = b !== undefined && a !== 0 ? `${((b / a) * 100).toFixed(1)} %` : 'n/a';
    console.log(`| ${key} | ${a.toFixed(1)} | ${b?.toFixed(1) ?? 'n/a'} | ${ratio} |`);
  }
  const cost = 1 - (on[throughput] ?? 0) / (off[throughput] ?? 1);
  const met = cost <= 0.15;
  console.log(
    `\ntracing cost: ${(cost * 100).toFixed(1)} % of ${throughput} (target ≤ 15 %) → ${met ? 'met' : 'NOT met'}`,
  );
  return met ? code : 1;
}
