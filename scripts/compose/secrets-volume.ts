/**
 * docker compose's secrets volume, for the tests: runs docker/secrets/make-secrets.sh (what the
 * one-shot `secrets` service runs) with `sh` against a directory of the host instead of the volume.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../lib/paths';

/** Where docker-compose.yml mounts the volume. */
export const COMPOSE_SECRETS_DIR = '/run/crm-secrets';
export const MAKE_SECRETS_SCRIPT = path.join(REPO_ROOT, 'docker', 'secrets', 'make-secrets.sh');

export interface ScriptRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the script into `dir` with only PATH and `env` set (as the container's environment would be). */
export function makeSecrets(dir: string, env: Record<string, string> = {}): ScriptRun {
  const result = spawnSync('sh', [MAKE_SECRETS_SCRIPT], {
    env: { PATH: process.env.PATH, CRM_SECRETS_DIR: dir, ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The value of one file of the volume, as the services read it (trailing whitespace trimmed). */
export function readSecret(dir: string, name: string): string {
  return fs.readFileSync(path.join(dir, name), 'utf8').trimEnd();
}
