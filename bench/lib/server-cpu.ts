/**
 * CPU time of the database server's processes, from /proc (Linux): what a benchmark needs to say
 * whether the database or the Node side is the limit on a shared machine.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';

/** Command names (as /proc shows them, at most 15 characters) of MongoDB-compatible servers and their helpers. */
const DATABASE_COMMANDS = ['mongod', 'ferretdb', 'postgres'];

/** CPU seconds (user + system) used so far by the database server's processes; undefined off Linux. */
export function databaseCpuSeconds(): number | undefined {
  if (!existsSync('/proc/self/stat')) return undefined;
  let ticks = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const command = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (!DATABASE_COMMANDS.some((name) => command.startsWith(name))) continue;
      // Fields after the command name: utime and stime are the 12th and 13th.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // the process ended while we were reading
    }
  }
  return ticks / 100; // USER_HZ is 100 on Linux
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
