/** Redis, RabbitMQ and the SMTP catcher (Mailpit) for infra-up. */
import path from 'node:path';
import { ensureMailpitBinary } from '../go-tools';
import { restartRabbitNode } from '../rabbitmq-node';
import { ensureDir, infraDir, infraPaths, rel, REPO_ROOT } from '../paths';
import {
  amqpCheck,
  describeError,
  fmt,
  hostPortOf,
  httpOk,
  isLocalHost,
  redisPing,
  smtpGreets,
  tcpOpen,
  waitFor,
  type HostPort,
} from '../probes';
import { runLogged, runQuick, spawnDetached, which, writeRunMeta } from '../processes';

import { Ctx, redact, secondsSince } from './context';

// ---------------------------------------------------------------------------------------------
// Redis

export async function ensureRedis(ctx: Ctx): Promise<void> {
  const hp = hostPortOf(ctx.env.REDIS_URL, 6379);
  if (await redisPing(hp)) {
    ctx.report(
      'redis',
      'already up',
      isLocalHost(hp.host) ? fmt(hp) : `${fmt(hp)} (external: nothing started)`,
    );
    return;
  }
  if (!isLocalHost(hp.host)) {
    ctx.report('redis', 'failed', `REDIS_URL points elsewhere (${fmt(hp)}), which does not answer PING`);
    return;
  }
  if (await tcpOpen(hp)) {
    // A Redis that a machine has just booted (or that is saving) can hold its port for seconds
    // before it answers; give it that time before calling the port someone else's.
    const reason = await waitFor(() => redisPing(hp), { timeoutMs: 30_000 });
    if (reason === null) {
      ctx.report('redis', 'already up', `${fmt(hp)} (answered after a wait)`);
      return;
    }
    ctx.report(
      'redis',
      'failed',
      `port ${fmt(hp)} is in use by something that does not answer Redis PING (30 s)`,
    );
    return;
  }
  const server = which('redis-server');
  if (!server) {
    ctx.report('redis', 'failed', 'redis-server is not installed (apt-get install redis-server)');
    return;
  }
  const t0 = Date.now();
  const dir = ensureDir(infraPaths.data('redis'));
  const proc = spawnDetached(
    'redis',
    server,
    [
      '--bind',
      hp.host,
      '--port',
      String(hp.port),
      '--save',
      '',
      '--appendonly',
      'no',
      '--daemonize',
      'no',
      '--dir',
      dir,
    ],
    { description: `redis-server on ${fmt(hp)}`, match: 'redis-server' },
  );
  ctx.started.push('redis');
  const reason = await waitFor(() => redisPing(hp), { timeoutMs: 20_000, abort: proc.exited });
  if (reason === null) ctx.report('redis', 'started', `${fmt(hp)} (pid ${proc.pid}, ${secondsSince(t0)})`);
  else ctx.report('redis', 'failed', `${reason}; see ${rel(infraPaths.log('redis'))}`);
}

// ---------------------------------------------------------------------------------------------
// RabbitMQ

export async function ensureRabbit(ctx: Ctx): Promise<void> {
  const url = ctx.env.AMQP_URL;
  const hp = hostPortOf(url, 5672);
  const first = await amqpCheck(url);
  if (first === null) {
    ctx.report(
      'rabbitmq',
      'already up',
      isLocalHost(hp.host) ? fmt(hp) : `${redact(url)} (external: nothing started)`,
    );
    return;
  }
  if (!isLocalHost(hp.host)) {
    ctx.report(
      'rabbitmq',
      'failed',
      `AMQP_URL points elsewhere (${redact(url)}) and does not connect: ${first}`,
    );
    return;
  }
  if (await tcpOpen(hp)) {
    // Listening but refusing (booting, or wrong credentials): give it a little time.
    const reason = await waitFor(() => amqpCheck(url), { timeoutMs: 20_000, intervalMs: 1000 });
    if (reason === null) ctx.report('rabbitmq', 'already up', fmt(hp));
    else ctx.report('rabbitmq', 'failed', `port ${fmt(hp)} is open but AMQP connect fails: ${reason}`);
    return;
  }
  const ctl = which('rabbitmqctl');
  const server = which('rabbitmq-server');
  if (!ctl || !server) {
    ctx.report('rabbitmq', 'failed', 'RabbitMQ is not installed (apt-get install rabbitmq-server)');
    return;
  }
  const t0 = Date.now();
  const nodeRunning = runQuick(ctl, ['-q', 'ping'], 30_000).code === 0;
  let how = nodeRunning ? 'rabbitmqctl start_app' : 'rabbitmq-server -detached';
  const stopArgs = nodeRunning ? ['stop_app'] : ['stop'];
  const started = nodeRunning
    ? await runLogged('rabbitmq', ctl, ['start_app'], { timeoutMs: 120_000 })
    : await runLogged('rabbitmq', server, ['-detached'], { timeoutMs: 60_000 });
  ctx.started.push('rabbitmq');
  // Recorded before the wait so that a failed start can still be undone by infra-down.
  writeRunMeta({
    name: 'rabbitmq',
    pid: null,
    startedAt: new Date().toISOString(),
    description: `RabbitMQ (${how})`,
    stop: { kind: 'command', command: ctl, args: stopArgs },
  });
  let reason =
    started.code === 0
      ? await waitFor(() => amqpCheck(url), { timeoutMs: 60_000, intervalMs: 500 })
      : `${how} exited ${started.code}`;
  if (reason !== null) {
    // A node left wedged by an earlier run (Mnesia "overloaded", start_app hanging): start afresh.
    how = `fresh node after "${reason}"`;
    reason = await restartRabbitNode(url);
  }
  if (reason !== null) {
    ctx.report(
      'rabbitmq',
      'failed',
      `${how}: ${reason}; see ${rel(infraPaths.log('rabbitmq'))} and /var/log/rabbitmq`,
    );
    return;
  }
  const pidOut = runQuick(ctl, ['-q', 'eval', 'os:getpid().'], 20_000).output;
  const pid = Number(/"(\d+)"/.exec(pidOut)?.[1] ?? NaN);
  if (Number.isInteger(pid) && pid > 0) {
    writeRunMeta({
      name: 'rabbitmq',
      pid,
      startedAt: new Date().toISOString(),
      description: `RabbitMQ (${how})`,
      stop: { kind: 'command', command: ctl, args: stopArgs },
    });
  }
  ctx.report('rabbitmq', 'started', `${fmt(hp)} (${how}, ${secondsSince(t0)})`);
}

// ---------------------------------------------------------------------------------------------
// SMTP catcher with Mailpit's HTTP API

async function mailpitUp(smtp: HostPort, apiUrl: string): Promise<boolean> {
  const [s, h] = await Promise.all([smtpGreets(smtp), httpOk(`${apiUrl}/api/v1/messages?limit=1`)]);
  return s && h;
}

export async function ensureMailpit(ctx: Ctx, buildTools: Promise<void>): Promise<void> {
  const smtp = hostPortOf(ctx.env.SMTP_URL, 25);
  const apiUrl = ctx.env.MAILPIT_URL.replace(/\/+$/, '');
  const http = hostPortOf(apiUrl, 80);
  const where = `smtp ${fmt(smtp)}, http ${fmt(http)}`;
  if (await mailpitUp(smtp, apiUrl)) {
    const local = isLocalHost(smtp.host) && isLocalHost(http.host);
    ctx.report('mailpit', 'already up', local ? where : `${where} (external: nothing started)`);
    return;
  }
  if (!isLocalHost(smtp.host) || !isLocalHost(http.host)) {
    ctx.report('mailpit', 'failed', `SMTP_URL/MAILPIT_URL point elsewhere (${where}) and do not answer`);
    return;
  }
  const [smtpBusy, httpBusy] = await Promise.all([tcpOpen(smtp), tcpOpen(http)]);
  if (smtpBusy || httpBusy) {
    const reason = await waitFor(async () => mailpitUp(smtp, apiUrl), { timeoutMs: 5000, intervalMs: 500 });
    if (reason === null) ctx.report('mailpit', 'already up', where);
    else
      ctx.report(
        'mailpit',
        'failed',
        `port ${smtpBusy ? fmt(smtp) : fmt(http)} is in use by something that is not an SMTP catcher with Mailpit's API`,
      );
    return;
  }
  const t0 = Date.now();
  let proc: ReturnType<typeof spawnDetached>;
  let how: string;
  try {
    if (ctx.env.MAIL_CATCHER === 'node') throw new Error('MAIL_CATCHER=node');
    await buildTools.catch(() => undefined);
    const binary = await ensureMailpitBinary((m) => ctx.progress('mailpit', m));
    const db = path.join(ensureDir(infraDir()), 'mailpit.db');
    proc = spawnDetached(
      'mailpit',
      binary,
      [
        '--smtp',
        fmt(smtp),
        '--listen',
        fmt(http),
        '--smtp-auth-accept-any',
        '--smtp-auth-allow-insecure',
        '--database',
        db,
        '--max',
        '2000',
        '--disable-version-check',
      ],
      { description: `Mailpit (${where})`, match: 'mailpit' },
    );
    how = 'Mailpit';
  } catch (err) {
    // No Go, the build failed, or MAIL_CATCHER=node: the small Node catcher serves the same API.
    const catcher = path.join(__dirname, 'mail-catcher.ts');
    ctx.progress(
      'mailpit',
      `Mailpit unavailable (${describeError(err).split('\n')[0]}); using the Node SMTP catcher`,
    );
    proc = spawnDetached(
      'mail-catcher',
      process.execPath,
      ['--import', 'tsx', catcher, '--smtp', fmt(smtp), '--listen', fmt(http)],
      { description: `Node SMTP catcher (${where})`, match: 'mail-catcher', cwd: REPO_ROOT },
    );
    how = 'Node SMTP catcher (fallback)';
  }
  const name = how === 'Mailpit' ? 'mailpit' : 'mail-catcher';
  ctx.started.push(name);
  const reason = await waitFor(() => mailpitUp(smtp, apiUrl), { timeoutMs: 30_000, abort: proc.exited });
  if (reason === null)
    ctx.report('mailpit', 'started', `${where} (${how}, pid ${proc.pid}, ${secondsSince(t0)})`);
  else ctx.report('mailpit', 'failed', `${how}: ${reason}; see ${rel(infraPaths.log(name))}`);
}
