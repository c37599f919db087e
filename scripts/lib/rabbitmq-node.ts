/**
 * Last-resort recovery of a local RabbitMQ node whose application will not start.
 *
 * Seen on this kind of machine: after many `stop_app`/`start_app` cycles under load, Mnesia reports
 * "overloaded" and `rabbitmqctl start_app` hangs. The only cure is a fresh node: stop it (or kill its
 * Erlang VM when it does not answer) and start `rabbitmq-server -detached` again. Both infra-up and
 * the fault tests use this, so a broker left wedged by one run does not fail the next.
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { amqpCheck, sleep, waitFor } from './probes';

const run = promisify(execFile);

async function tryRun(command: string, args: string[], timeoutMs: number): Promise<boolean> {
  try {
    await run(command, args, { timeout: timeoutMs, killSignal: 'SIGKILL' });
    return true;
  } catch {
    return false;
  }
}

/** PIDs of the RabbitMQ Erlang VM (`beam.smp … -s rabbit boot`), found without asking the node. */
function rabbitVmPids(): number[] {
  try {
    return execFileSync('pgrep', ['-f', 'beam.smp.*rabbit'], { encoding: 'utf8' })
      .split('\n')
      .map(Number)
      .filter((pid) => Number.isInteger(pid) && pid > 0);
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
}

/**
 * Stops the node (killing its VM if `rabbitmqctl stop` does not finish), starts a new one and waits
 * until AMQP answers. Returns null on success, otherwise the reason.
 */
export async function restartRabbitNode(
  amqpUrl = 'amqp://guest:guest@127.0.0.1:5672',
): Promise<string | null> {
  await tryRun('rabbitmqctl', ['stop'], 60_000);
  for (const pid of rabbitVmPids()) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  await sleep(1000);
  if (!(await tryRun('rabbitmq-server', ['-detached'], 60_000))) return 'rabbitmq-server -detached failed';
  return waitFor(() => amqpCheck(amqpUrl), { timeoutMs: 120_000, intervalMs: 500 });
}
