/**
 * A trace as Jaeger's query API answers it (`GET /api/traces/<id>`), drawn as an indented tree:
 * one line per span with its start within the trace, its duration, its service and operation,
 * the HTTP status or delivery outcome, an error mark, and the span's events (a retry scheduled, a
 * dead letter). For `npm run trace`, because a Jaeger built from its Go module has no web UI.
 */

export interface JaegerTag {
  key: string;
  value: unknown;
}

export interface JaegerSpan {
  spanID: string;
  operationName: string;
  references?: Array<{ refType: string; spanID: string }>;
  /** Microseconds since the epoch. */
  startTime: number;
  /** Microseconds. */
  duration: number;
  tags?: JaegerTag[];
  logs?: Array<{ fields?: JaegerTag[] }>;
  processID: string;
}

export interface JaegerTrace {
  traceID: string;
  spans: JaegerSpan[];
  processes: Record<string, { serviceName: string }>;
}

const tagOf = (span: JaegerSpan, ...keys: string[]) =>
  keys.map((key) => span.tags?.find((t) => t.key === key)?.value).find((v) => v !== undefined);

const ms = (micros: number) => `${(micros / 1000).toFixed(1)} ms`;

function outcomeOf(span: JaegerSpan): string {
  const status = tagOf(span, 'http.response.status_code', 'http.status_code');
  const delivery = tagOf(span, 'crm.delivery.outcome');
  const failed = tagOf(span, 'error') === true || tagOf(span, 'otel.status_code') === 'ERROR';
  return [status, delivery, failed ? '✗ error' : undefined].filter((v) => v !== undefined).join(' ');
}

function eventsOf(span: JaegerSpan): string[] {
  return (span.logs ?? [])
    .map((log) => log.fields?.find((f) => f.key === 'event')?.value)
    .filter((name): name is string => typeof name === 'string');
}

/** The trace's lines, parents before children, siblings by start time. */
export function traceLines(trace: JaegerTrace): string[] {
  const byId = new Map(trace.spans.map((span) => [span.spanID, span]));
  const children = new Map<string, JaegerSpan[]>();
  const roots: JaegerSpan[] = [];
  for (const span of trace.spans) {
    const parent = span.references?.find((r) => byId.has(r.spanID))?.spanID;
    if (parent) children.set(parent, [...(children.get(parent) ?? []), span]);
    else roots.push(span);
  }
  const byStart = (a: JaegerSpan, b: JaegerSpan) => a.startTime - b.startTime;
  const start = Math.min(...trace.spans.map((s) => s.startTime));
  const end = Math.max(...trace.spans.map((s) => s.startTime + s.duration));
  const services = new Set(trace.spans.map((s) => trace.processes[s.processID]?.serviceName));
  const lines = [
    `trace ${trace.traceID}: ${trace.spans.length} spans, ${services.size} services, ${ms(end - start)}`,
  ];
  const draw = (span: JaegerSpan, depth: number) => {
    const service = trace.processes[span.processID]?.serviceName ?? '?';
    const outcome = outcomeOf(span);
    lines.push(
      `${ms(span.startTime - start).padStart(10)} ${ms(span.duration).padStart(10)}  ${'  '.repeat(depth)}${service}: ${span.operationName}${outcome ? `  [${outcome}]` : ''}`,
    );
    for (const event of eventsOf(span)) lines.push(`${' '.repeat(23)}${'  '.repeat(depth + 1)}· ${event}`);
    for (const child of (children.get(span.spanID) ?? []).sort(byStart)) draw(child, depth + 1);
  };
  for (const root of roots.sort(byStart)) draw(root, 0);
  return lines;
}
