/**
 * One docker-compose.yml project driven from a script: build, up, health, faults (kill, restart,
 * scale, down and up again) and the values of the secrets volume. Host ports are chosen so that
 * the project runs beside the local infrastructure of npm test (its Mailpit holds 1025 and 8025).
 */
import { spawnSync } from 'node:child_process';
import { sleep } from '../lib/probes';
import { REPO_ROOT } from '../lib/paths';
import { dockerOk, run } from './docker-cli';
import { composeCommand } from './engine';

export interface ComposeOptions {
  project: string;
  /** Variables for the compose file (images, host ports). */
  env: Record<string, string>;
}

export class ComposeStack {
  private readonly command: [string, string[]] = composeCommand();

  constructor(private readonly options: ComposeOptions) {}

  get env(): NodeJS.ProcessEnv {
    return { ...process.env, ...this.options.env };
  }

  compose(args: string[], timeoutMs = 15 * 60_000): Promise<string> {
    const [bin, base] = this.command;
    return run(bin, [...base, '-p', this.options.project, '-f', `${REPO_ROOT}/docker-compose.yml`, ...args], {
      env: this.env,
      timeoutMs,
    });
  }

  /**
   * `compose down` (with `-v` or not). The engine now and then keeps an endpoint on the project's
   * network after every container on it was removed (moby/moby#42119), and compose then stops at
   * "has active endpoints", before the volumes. The containers are gone by then: as compose v2 does,
   * the network is let be when forcing its listed endpoints out does not free it (`up` reuses it),
   * and the volumes `-v` asks for are removed here. Returns what was done about it, or ''.
   */
  async down(options: string[] = []): Promise<string> {
    try {
      await this.compose(['down', ...options]);
      return '';
    } catch (error) {
      if (!/has active endpoints/.test(String(error))) throw error;
    }
    const project = this.options.project;
    const network = `${project}_default`;
    const listed = (args: string[]): string[] =>
      spawnSync('docker', args, { encoding: 'utf8' }).stdout.split(/\s+/).filter(Boolean);
    const endpoints = listed(['network', 'inspect', '-f', '{{range .Containers}}{{.Name}} {{end}}', network]);
    for (const endpoint of endpoints) dockerOk(['network', 'disconnect', '-f', network, endpoint]);
    const removed = dockerOk(['network', 'rm', network]);
    if (options.includes('-v')) {
      const volumes = listed([
        'volume',
        'ls',
        '-q',
        '--filter',
        `label=com.docker.compose.project=${project}`,
      ]);
      if (volumes.length > 0) await run('docker', ['volume', 'rm', ...volumes]);
    }
    return `the engine kept endpoints on ${network} (${endpoints.join(', ') || 'none listed'}): network ${removed ? 'removed' : 'kept'}`;
  }

  /** The containers of a service (several when scaled). */
  containers(service?: string): string[] {
    const filters = ['--filter', `label=com.docker.compose.project=${this.options.project}`];
    if (service) filters.push('--filter', `label=com.docker.compose.service=${service}`);
    const out = spawnSync('docker', ['ps', '-q', ...filters], { encoding: 'utf8' }).stdout;
    return out.split('\n').filter(Boolean);
  }

  /** Waits until every running container of the project that has a health check is healthy. */
  async waitHealthy(timeoutMs = 180_000): Promise<number> {
    const started = Date.now();
    let last = '';
    while (Date.now() - started < timeoutMs) {
      const ids = this.containers();
      // One `docker inspect` for all of them: a process per container and second is CPU the
      // starting containers need on a small machine.
      const format = '{{.Name}} {{.State.Status}} {{if .State.Health}}{{.State.Health.Status}}{{end}}';
      const states =
        ids.length === 0
          ? []
          : spawnSync('docker', ['inspect', '-f', format, ...ids], { encoding: 'utf8' })
              .stdout.split('\n')
              .map((line) => line.trim())
              .filter(Boolean);
      // A container without a health check (Jaeger's image has no shell to run one) counts once running.
      const waiting = states.filter((s) => !/ running( healthy)?$/.test(s));
      // (A container gone between `ps` and `inspect` has no line: wait for the next look.)
      if (ids.length > 0 && states.length === ids.length && waiting.length === 0) return Date.now() - started;
      last = waiting.join(', ');
      await sleep(1000);
    }
    throw new Error(`not healthy within ${timeoutMs / 1000} s: ${last}`);
  }

  /** Values the secrets service made (docker/secrets/make-secrets.sh), read in one container. */
  async secrets<N extends string>(names: readonly N[]): Promise<Record<N, string>> {
    const script = 'for name; do printf "%s\\n" "$(cat "/run/crm-secrets/$name")"; done';
    const out = await this.compose([
      'run',
      '--rm',
      '--no-deps',
      '-T',
      'secrets',
      'sh',
      '-c',
      script,
      'sh',
      ...names,
    ]);
    // compose may print its own lines first: the values are the last ones, one per name.
    const values = out
      .trimEnd()
      .split('\n')
      .slice(-names.length)
      .map((line) => line.trim());
    return Object.fromEntries(names.map((name, i) => [name, values[i]!])) as Record<N, string>;
  }
}
