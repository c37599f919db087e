/**
 * Calls to the product through its gateway, as any client makes them: JSON in, JSON out, a bearer
 * token when signed in. A call that never got an answer (connection refused or reset, timeout)
 * throws `NoAnswer`, which the checks tell apart from an answer they did not expect.
 */
import { API_PREFIX } from '../../../gateway/src/proxy-table';
import type { ComposeTarget } from './target';
import { sleep } from '@crm/testing';

export interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  text: string;
  headers: Headers;
}

export class NoAnswer extends Error {}

/** How long one call may take before it counts as unanswered. */
const CALL_TIMEOUT_MS = 15_000;

export async function call(
  t: ComposeTarget,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  servicePath: string,
  options: { token?: string; body?: unknown } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  let text: string;
  try {
    response = await fetch(`${t.gatewayUrl}${API_PREFIX}${servicePath}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
    text = await response.text();
  } catch (error) {
    const reason =
      error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : '';
    throw new NoAnswer(`${method} ${servicePath}: no answer (${reason})`, { cause: error });
  }
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: response.status, body, text, headers: response.headers };
}

/** The answer's own words, for error messages: its `message` and first field error, else its text. */
export function describe(answer: Answer): string {
  const message = answer.body?.message;
  const field = answer.body?.errors?.[0];
  if (typeof message !== 'string') return `${answer.status} ${answer.text.slice(0, 200)}`;
  return `${answer.status} ${message}${field?.field ? ` (${field.field}: ${field.message})` : ''}`;
}

/** The answer, when it has the expected status; else an error naming what was being done. */
export function expectStatus(answer: Answer, status: number, what: string): Answer {
  if (answer.status !== status) throw new Error(`${what}: expected ${status}, got ${describe(answer)}`);
  return answer;
}

/** An answer that says "try again later": the service or the gateway is momentarily unable. */
export const isTransient = (answer: Answer): boolean =>
  answer.status === 429 || answer.status === 502 || answer.status === 503 || answer.status === 504;

/**
 * Repeats a call while it gets no answer or a transient one, until `deadlineMs` has passed; then
 * returns the last answer (or throws the last NoAnswer). For calls that are safe to repeat.
 */
export async function callUntilAnswered(
  make: () => Promise<Answer>,
  deadlineMs = 60_000,
  pauseMs = 1_000,
): Promise<Answer> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    try {
      const answer = await make();
      if (!isTransient(answer) || Date.now() > deadline) return answer;
    } catch (error) {
      if (!(error instanceof NoAnswer) || Date.now() > deadline) throw error;
    }
    await sleep(pauseMs);
  }
}

/** Runs `work` over `items` with at most `parallel` at a time, keeping the order of the results. */
export async function inParallel<I, O>(
  items: readonly I[],
  parallel: number,
  work: (item: I, index: number) => Promise<O>,
): Promise<O[]> {
  const results: O[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, items.length) }, worker));
  return results;
}
