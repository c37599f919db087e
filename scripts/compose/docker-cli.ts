/** The Docker and compose command lines the compose scripts run (output shown on failure only). */
import { spawn, spawnSync } from 'node:child_process';
import { REPO_ROOT } from '../lib/paths';

export class CommandError extends Error {}

/** Runs a command to its end; its output is returned, and shown in the error when it fails. */
export function run(
  command: string,
  args: string[],
  opts: { env?: NodeJS.ProcessEnv; input?: string; timeoutMs?: number } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: REPO_ROOT, env: opts.env ?? process.env });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    if (opts.input !== undefined) child.stdin.end(opts.input);
    else child.stdin.end();
    const timer = opts.timeoutMs ? setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs) : undefined;
    child.once('error', (error) => reject(new CommandError(`${command}: ${error.message}`)));
    child.once('exit', (code, signal) => {
      if (timer) clearTimeout(timer);
      if (code === 0) resolve(output);
      else
        reject(
          new CommandError(
            `${command} ${args.join(' ')} ended with ${signal ?? `exit ${code}`}:\n${output.split('\n').slice(-40).join('\n')}`,
          ),
        );
    });
  });
}

export function docker(args: string[], opts: { input?: string; timeoutMs?: number } = {}): Promise<string> {
  return run('docker', args, opts);
}

/** Whether a quick docker command succeeds (no output kept). */
export function dockerOk(args: string[]): boolean {
  return spawnSync('docker', args, { stdio: 'ignore', timeout: 30_000 }).status === 0;
}

export function imageSizeMb(image: string): number {
  const result = spawnSync('docker', ['image', 'inspect', '-f', '{{.Size}}', image], { encoding: 'utf8' });
  return Math.round(Number(result.stdout.trim()) / 1e6);
}
