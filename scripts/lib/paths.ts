import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Repository root (this file lives in <root>/scripts/lib). */
export const REPO_ROOT = path.resolve(__dirname, '..', '..');

/**
 * Where local infrastructure keeps its state. `INFRA_DIR` overrides it (useful to run a second,
 * isolated set of infrastructure processes on other ports).
 */
export function infraDir(): string {
  return path.resolve(REPO_ROOT, process.env.INFRA_DIR || '.infra');
}

export const infraPaths = {
  bin: (): string => path.join(infraDir(), 'bin'),
  logs: (): string => path.join(infraDir(), 'logs'),
  run: (): string => path.join(infraDir(), 'run'),
  log: (name: string): string => path.join(infraDir(), 'logs', `${name}.log`),
  pid: (name: string): string => path.join(infraDir(), 'run', `${name}.pid`),
  meta: (name: string): string => path.join(infraDir(), 'run', `${name}.json`),
  data: (name: string): string => path.join(infraDir(), name),
};

export function ensureDir(dir: string): string {
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** Path relative to the repository root, for messages. */
export function rel(p: string): string {
  const r = path.relative(REPO_ROOT, p);
  return r.startsWith('..') ? p : r;
}

/**
 * The machine's random development secrets (scripts/lib/dev-env.ts `localSecretsFile`), kept with
 * the user's state because the local infrastructure they open is the machine's, not a checkout's.
 * packages/testing/src/infrastructure.ts reads the same place.
 */
export function machineSecretsFile(): string {
  const state = process.env.XDG_STATE_HOME || path.join(os.homedir(), '.local', 'state');
  return path.join(state, 'crm-platform', 'secrets.env');
}
