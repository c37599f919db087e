/**
 * CPU time of processes, from /proc (Linux): what the benchmarks need to say whether a bad figure
 * comes from the process measured, the database server or other work sharing the machine.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';

/** Command names (as /proc shows them, at most 15 characters) of MongoDB-compatible servers and their helpers. */
const DATABASE_COMMANDS = ['mongod', 'ferretdb', 'postgres'];

/** A process's command name and CPU ticks (user + system), or undefined when it is gone. */
function readStat(pid: number | string): { command: string; ticks: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    // Fields after the command name (which may contain spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(close + 2).split(' ');
    return {
      command: stat.slice(stat.indexOf('(') + 1, close),
      ticks: Number(fields[11]) + Number(fields[12]),
    };
  } catch {
    return undefined;
  }
}

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** CPU time a process has used so far, in microseconds; undefined off Linux. */
export function cpuMicros(pid: number | undefined): number | undefined {
  const stat = pid === undefined ? undefined : readStat(pid);
  return stat && (stat.ticks * 1e6) / TICKS_PER_SECOND;
}

/** CPU seconds used so far by the processes whose command name starts with one of `commands`. */
export function commandsCpuSeconds(commands: readonly string[]): number | undefined {
  if (!existsSync('/proc/self/stat')) return undefined;
  let ticks = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    const stat = readStat(pid);
    if (stat && commands.some((name) => stat.command.startsWith(name))) ticks += stat.ticks;
  }
  return ticks / TICKS_PER_SECOND;
}

/** CPU seconds used so far by the database server's processes; undefined off Linux. */
export function databaseCpuSeconds(): number | undefined {
  return commandsCpuSeconds(DATABASE_COMMANDS);
}

/** CPU seconds of this process and of the database server during `work`. */
export async function cpuDuring<T>(
  work: () => Promise<T>,
): Promise<{ result: T; node: number; database?: number }> {
  const database = databaseCpuSeconds();
  const node = process.cpuUsage();
  const result = await work();
  const used = process.cpuUsage(node);
  const databaseAfter = databaseCpuSeconds();
  return {
    result,
    node: (used.user + used.system) / 1e6,
    database: database === undefined || databaseAfter === undefined ? undefined : databaseAfter - database,
  };
}
