/**
 * `npm run trace -- <trace id>`: a trace from the local Jaeger's query API as a tree (the trace id
 * is a response's X-Request-Id, or a log line's correlationId). Without an id: the newest traces
 * of the gateway, one line each. JAEGER_QUERY_URL: where the API is (default npm start's Jaeger).
 */
import { JAEGER_UI_URL } from '../lib/infra/jaeger';
import { traceLines, type JaegerTrace } from './trace-tree';

const api = (process.env.JAEGER_QUERY_URL?.trim() || JAEGER_UI_URL).replace(/\/+$/, '');

async function get(path: string): Promise<JaegerTrace[]> {
  const response = await fetch(`${api}${path}`).catch((error: Error) => {
    throw new Error(`Jaeger does not answer at ${api} (${error.message}); npm start runs it`);
  });
  if (response.status === 404) return [];
  if (!response.ok) throw new Error(`Jaeger answered HTTP ${response.status} for ${path}`);
  return ((await response.json()) as { data?: JaegerTrace[] }).data ?? [];
}

async function main(id = process.argv[2]): Promise<void> {
  if (id && !/^[0-9a-f]{16,32}$/i.test(id)) throw new Error('a trace id is 32 hexadecimal digits');
  if (id) {
    const [trace] = await get(`/api/traces/${id}`);
    if (!trace)
      throw new Error(`no trace ${id} in Jaeger (it keeps traces in memory: a restart forgets them)`);
    console.log(traceLines(trace).join('\n'));
    return;
  }
  const traces = await get('/api/traces?service=gateway&limit=20&lookback=1h');
  if (traces.length === 0) console.log('no gateway trace in the last hour');
  for (const trace of traces) console.log(traceLines(trace)[0]);
}

main().catch((error: Error) => {
  console.error(`trace: ${error.message}`);
  process.exit(1);
});
