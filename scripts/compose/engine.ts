/**
 * The container engine and the compose command for npm run test:compose: a running engine is used
 * as it is; a machine without one gets Debian's docker.io (and docker-compose) installed and
 * dockerd started in the background, as an operator of this machine kind would.
 */
import fs from 'node:fs';
import { spawn, spawnSync } from 'node:child_process';
import { ensureDir, infraPaths } from '../lib/paths';
import { sleep } from '../lib/probes';
import { which } from '../lib/processes';
import { dockerOk, run } from './docker-cli';

function aptInstall(packages: string[]): Promise<string> {
  return run(
    'apt-get',
    ['-o', 'DPkg::Lock::Timeout=300', 'install', '-y', '-qq', '--no-install-recommends', ...packages],
    {
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    },
  );
}

export async function ensureEngine(say: (line: string) => void): Promise<void> {
  if (dockerOk(['info'])) return say('engine: running');
  const missing = [
    !which('dockerd') && 'docker.io',
    !which('docker-compose') && !composeV2() && 'docker-compose',
  ].filter((p): p is string => Boolean(p));
  if (missing.length > 0) {
    say(`engine: installing ${missing.join(', ')}`);
    await run('apt-get', ['-o', 'DPkg::Lock::Timeout=300', 'update', '-qq']);
    await aptInstall(missing);
  }
  ensureDir(infraPaths.logs());
  const log = fs.openSync(infraPaths.log('dockerd'), 'a');
  const daemon = spawn('dockerd', [], { detached: true, stdio: ['ignore', log, log] });
  daemon.unref();
  for (let waited = 0; waited < 60_000; waited += 500) {
    if (dockerOk(['info']))
      return say(`engine: dockerd started (pid ${daemon.pid}, log .infra/logs/dockerd.log)`);
    await sleep(500);
  }
  throw new Error('dockerd did not answer within 60 s (see .infra/logs/dockerd.log)');
}

function composeV2(): boolean {
  return spawnSync('docker', ['compose', 'version'], { stdio: 'ignore' }).status === 0;
}

/** `docker compose` when the plugin is there, else the standalone docker-compose. */
export function composeCommand(): [string, string[]] {
  return composeV2() ? ['docker', ['compose']] : ['docker-compose', []];
}
