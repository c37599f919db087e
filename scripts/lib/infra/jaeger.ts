import fs from 'node:fs';
import path from 'node:path';
import { ensureJaegerBinary } from '../go-tools';
import { ensureDir, infraDir, infraPaths, rel } from '../paths';
import { describeError, httpOk, tcpOpen, waitFor } from '../probes';
import { spawnDetached } from '../processes';

import { Ctx, secondsSince } from './context';

/** Where the local Jaeger listens: loopback only (OTLP gRPC and HTTP, UI and its API). */
export const JAEGER = {
  host: '127.0.0.1',
  otlpGrpcPort: 4317,
  otlpHttpPort: 4318,
  uiPort: 16686,
  queryGrpcPort: 16685,
  healthPort: 13133,
} as const;

/** What the deployables export to under `npm start`. */
export const JAEGER_OTLP_ENDPOINT = `http://${JAEGER.host}:${JAEGER.otlpHttpPort}`;
export const JAEGER_UI_URL = `http://${JAEGER.host}:${JAEGER.uiPort}`;

/**
 * Jaeger v2's configuration (an OpenTelemetry Collector configuration): OTLP in, traces kept in
 * memory (the newest 100 000; a restart forgets them), the UI and its API; every port on loopback.
 * Built from its Go module, Jaeger has no UI of its own (the official image embeds one built with
 * npm): `uiDir`, a built jaeger-ui (`packages/jaeger-ui/build` of its repository), gives it one.
 */
export function jaegerConfig(uiDir?: string): string {
  const at = (port: number) => `${JAEGER.host}:${port}`;
  const ui = uiDir ? `\n    ui:\n      assets_path: ${JSON.stringify(path.resolve(uiDir))}` : '';
  return `# Written by scripts/lib/infra/jaeger.ts on every start; edit that file instead.
service:
  extensions: [jaeger_storage, jaeger_query, healthcheckv2]
  pipelines:
    traces:
      receivers: [otlp]
      processors: [batch]
      exporters: [jaeger_storage_exporter]
  telemetry:
    resource:
      service.name: jaeger
    metrics:
      level: none
    logs:
      level: info

extensions:
  healthcheckv2:
    use_v2: true
    http:
      endpoint: ${at(JAEGER.healthPort)}
  jaeger_query:
    storage:
      traces: memstore${ui}
    http:
      endpoint: ${at(JAEGER.uiPort)}
    grpc:
      endpoint: ${at(JAEGER.queryGrpcPort)}
  jaeger_storage:
    backends:
      memstore:
        memory:
          max_traces: 100000

receivers:
  otlp:
    protocols:
      grpc:
        endpoint: ${at(JAEGER.otlpGrpcPort)}
      http:
        endpoint: ${at(JAEGER.otlpHttpPort)}

processors:
  batch:

exporters:
  jaeger_storage_exporter:
    trace_storage: memstore
`;
}

const apiUp = () => httpOk(`${JAEGER_UI_URL}/api/services`);

/**
 * Brings up Jaeger (built once from its Go module into .infra/bin) unless it answers already.
 * Optional: without Go, or if it cannot start, the product runs without traces ('skipped'/'failed'
 * here, and start-all leaves OTEL_EXPORTER_OTLP_ENDPOINT unset).
 */
export async function ensureJaeger(ctx: Ctx, buildTools: Promise<void>): Promise<void> {
  const where = `OTLP ${JAEGER.host}:${JAEGER.otlpGrpcPort}/${JAEGER.otlpHttpPort}, UI ${JAEGER_UI_URL}`;
  if (await apiUp()) {
    ctx.report('jaeger', 'already up', where);
    return;
  }
  const busy = await Promise.all(
    [JAEGER.otlpHttpPort, JAEGER.otlpGrpcPort, JAEGER.uiPort].map((port) =>
      tcpOpen({ host: JAEGER.host, port }),
    ),
  );
  if (busy.some(Boolean)) {
    ctx.report('jaeger', 'failed', `a port of ${where} is in use by something that is not Jaeger`);
    return;
  }
  const t0 = Date.now();
  let binary: string;
  try {
    await buildTools.catch(() => undefined);
    binary = await ensureJaegerBinary((m) => ctx.progress('jaeger', m));
  } catch (err) {
    ctx.report('jaeger', 'failed', `not built (${describeError(err).split('\n')[0]}); traces are off`);
    return;
  }
  const config = path.join(ensureDir(infraDir()), 'jaeger.yaml');
  const uiDir = ctx.env.JAEGER_UI_DIR?.trim();
  const hasUi = Boolean(uiDir) && fs.existsSync(path.join(uiDir!, 'index.html'));
  if (uiDir && !hasUi)
    ctx.progress('jaeger', `JAEGER_UI_DIR has no index.html (${uiDir}): no UI, the API only`);
  fs.writeFileSync(config, jaegerConfig(hasUi ? uiDir : undefined));
  const proc = spawnDetached('jaeger', binary, ['--config', config], {
    description: `Jaeger (${where})`,
    match: 'jaeger',
  });
  ctx.started.push('jaeger');
  const reason = await waitFor(apiUp, { timeoutMs: 30_000, abort: proc.exited });
  if (reason === null) ctx.report('jaeger', 'started', `${where} (pid ${proc.pid}, ${secondsSince(t0)})`);
  else ctx.report('jaeger', 'failed', `${reason}; see ${rel(infraPaths.log('jaeger'))}`);
}
