/** What every component step of infra-up shares: its report lines and what it started. */
export type ComponentStatus = 'already up' | 'started' | 'ready' | 'failed' | 'skipped';

export interface ComponentReport {
  component: string;
  status: ComponentStatus;
  detail: string;
}

export interface EnsureOptions {
  /** Where the per-component lines go (default: console.log). */
  log?: (line: string) => void;
  /** Build the cached Go binaries (FerretDB, Mailpit) even when the services are already up. */
  buildTools?: boolean;
  /**
   * Also bring up Jaeger (traces; built once from its Go module). Optional: when it cannot be had,
   * its line says so and nothing else fails.
   */
  jaeger?: boolean;
  /** Environment to read MONGO_URL etc. from (default process.env; unset ones get dev defaults). */
  env?: NodeJS.ProcessEnv;
}

export interface EnsureResult {
  /** Run names of the processes this call started (for stopInfrastructure), in start order. */
  started: string[];
  reports: ComponentReport[];
}

export class InfrastructureError extends Error {
  constructor(
    message: string,
    readonly reports: ComponentReport[],
    readonly started: string[],
  ) {
    super(message);
    this.name = 'InfrastructureError';
  }
}

export const NAME_WIDTH = 9;
const STATUS_WIDTH = 10;

function colour(status: ComponentStatus, text: string): string {
  if (!process.stdout.isTTY || process.env.NO_COLOR) return text;
  const code = status === 'failed' ? 31 : status === 'started' ? 32 : status === 'skipped' ? 90 : 36;
  return `\u001b[${code}m${text}\u001b[0m`;
}

export function formatReport(r: ComponentReport): string {
  return `infra: ${r.component.padEnd(NAME_WIDTH)} ${colour(r.status, r.status.padEnd(STATUS_WIDTH))} ${r.detail}`;
}

/** Hides passwords in URLs before printing them. */
export function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):([^@/]+)@/, '//$1:***@');
}

export function secondsSince(t0: number): string {
  return `${((Date.now() - t0) / 1000).toFixed(1)} s`;
}

export class Ctx {
  readonly reports: ComponentReport[] = [];
  readonly started: string[] = [];
  constructor(
    readonly env: Record<string, string>,
    private readonly out: (line: string) => void,
  ) {}

  report(component: string, status: ComponentStatus, detail: string): boolean {
    const r = { component, status, detail };
    this.reports.push(r);
    this.out(formatReport(r));
    return status !== 'failed';
  }

  progress(component: string, message: string): void {
    this.out(`infra: ${component.padEnd(NAME_WIDTH)} ${''.padEnd(STATUS_WIDTH)} ${message}`);
  }
}
