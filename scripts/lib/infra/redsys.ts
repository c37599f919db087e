/** The local Redsys simulator for infra-up (card payments under `npm start`). */
import path from 'node:path';
import { REPO_ROOT, infraPaths, rel } from '../paths';
import { fmt, hostPortOf, httpOk, isLocalHost, tcpOpen, waitFor } from '../probes';
import { spawnDetached } from '../processes';
import { Ctx, secondsSince } from './context';

const simulatorUp = (url: string) => httpOk(`${url}/healthz`);

export async function ensureRedsysSimulator(ctx: Ctx): Promise<void> {
  const url = ctx.env.REDSYS_URL.replace(/\/+$/, '');
  const hp = hostPortOf(url, 80);
  if (!isLocalHost(hp.host)) {
    ctx.report('redsys', 'skipped', `REDSYS_URL is ${url}: the real gateway, nothing to start`);
    return;
  }
  if (await simulatorUp(url)) {
    ctx.report('redsys', 'already up', fmt(hp));
    return;
  }
  if (await tcpOpen(hp)) {
    // On a busy machine (the other components' checks run at the same time) the simulator may answer
    // late: ask again for a few seconds before deciding the port belongs to something else.
    if ((await waitFor(() => simulatorUp(url), { timeoutMs: 10_000, intervalMs: 500 })) === null) {
      ctx.report('redsys', 'already up', fmt(hp));
      return;
    }
    ctx.report('redsys', 'failed', `port ${fmt(hp)} is in use by something that is not the Redsys simulator`);
    return;
  }
  const t0 = Date.now();
  const proc = spawnDetached(
    'redsys',
    process.execPath,
    ['--import', 'tsx', path.join(__dirname, '..', 'redsys-simulator.ts'), '--listen', fmt(hp)],
    { description: `Redsys simulator (${fmt(hp)})`, match: 'redsys-simulator', cwd: REPO_ROOT },
  );
  ctx.started.push('redsys');
  const reason = await waitFor(() => simulatorUp(url), { timeoutMs: 30_000, abort: proc.exited });
  if (reason === null) ctx.report('redsys', 'started', `${fmt(hp)} (pid ${proc.pid}, ${secondsSince(t0)})`);
  else ctx.report('redsys', 'failed', `${reason}; see ${rel(infraPaths.log('redsys'))}`);
}
