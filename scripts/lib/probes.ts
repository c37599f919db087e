import net from 'node:net';

export interface HostPort {
  host: string;
  port: number;
}

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]', '0.0.0.0']);

export function isLocalHost(host: string): boolean {
  return LOCAL_HOSTS.has(host.toLowerCase()) || host.startsWith('127.');
}

/** host:port of a URL such as redis://h:p, amqp://u:p@h:p/vhost, smtp://h:p, http://h:p. */
export function hostPortOf(url: string, defaultPort: number): HostPort {
  const u = new URL(url);
  const host = u.hostname.replace(/^\[(.*)\]$/, '$1');
  return { host, port: u.port ? Number(u.port) : defaultPort };
}

export function fmt(hp: HostPort): string {
  return hp.host.includes(':') ? `[${hp.host}]:${hp.port}` : `${hp.host}:${hp.port}`;
}

export function describeError(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as NodeJS.ErrnoException).code;
    const msg = err.message || err.name;
    return code && !msg.includes(code) ? `${code}: ${msg}` : msg;
  }
  return String(err);
}

/**
 * Opens a TCP connection, optionally writes `send`, and resolves with the first chunk received
 * (or '' when `expectData` is false and the connection opened). Rejects on error or timeout.
 */
function tcpExchange(
  hp: HostPort,
  opts: { send?: string; expectData: boolean; timeoutMs: number },
): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hp.host, port: hp.port });
    let settled = false;
    const done = (err: Error | null, data = ''): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (err) reject(err);
      else resolve(data);
    };
    const timer = setTimeout(() => done(new Error(`timeout after ${opts.timeoutMs} ms`)), opts.timeoutMs);
    socket.once('error', (err) => done(err));
    socket.once('connect', () => {
      if (opts.send) socket.write(opts.send);
      if (!opts.expectData) done(null);
    });
    socket.once('data', (chunk) => done(null, chunk.toString('utf8')));
    socket.once('close', () => done(new Error('connection closed without data')));
  });
}

export async function tcpOpen(hp: HostPort, timeoutMs = 700): Promise<boolean> {
  try {
    await tcpExchange(hp, { expectData: false, timeoutMs });
    return true;
  } catch {
    return false;
  }
}

/** True when something answering the Redis protocol listens there (+PONG, or -NOAUTH etc.). */
export async function redisPing(hp: HostPort, timeoutMs = 1000): Promise<boolean> {
  try {
    const reply = await tcpExchange(hp, { send: 'PING\r\n', expectData: true, timeoutMs });
    return reply.startsWith('+PONG') || reply.startsWith('-');
  } catch {
    return false;
  }
}

/** True when an SMTP server greets with 220. */
export async function smtpGreets(hp: HostPort, timeoutMs = 1000): Promise<boolean> {
  try {
    const banner = await tcpExchange(hp, { expectData: true, timeoutMs });
    return banner.startsWith('220');
  } catch {
    return false;
  }
}

/** True when GET url answers 2xx. */
export async function httpOk(url: string, timeoutMs = 1500): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    await res.arrayBuffer().catch(() => undefined);
    return res.ok;
  } catch {
    return false;
  }
}

/** Resolves with null when an AMQP connection opens and closes cleanly, else the reason. */
export async function amqpCheck(url: string, timeoutMs = 3000): Promise<string | null> {
  // Loaded lazily: only this probe needs it.
  const amqp = await import('amqplib');
  try {
    const conn = await amqp.connect(url, { timeout: timeoutMs });
    conn.on('error', () => undefined);
    await conn.close().catch(() => undefined);
    return null;
  } catch (err) {
    return describeError(err);
  }
}

/** Resolves with null when the MongoDB-compatible server at url answers `ping`, else the reason. */
export async function mongoPing(url: string, timeoutMs = 2000): Promise<string | null> {
  const { MongoClient } = await import('mongodb');
  const client = new MongoClient(url, {
    serverSelectionTimeoutMS: timeoutMs,
    connectTimeoutMS: timeoutMs,
    socketTimeoutMS: timeoutMs * 2,
    maxPoolSize: 1,
  });
  try {
    await client.connect();
    await client.db('admin').command({ ping: 1 });
    return null;
  } catch (err) {
    return describeError(err);
  } finally {
    await client.close(true).catch(() => undefined);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Polls `check` (null/true = ready) until it succeeds, `abort` returns a reason, or timeout.
 * Resolves with null on success, else the last reason.
 */
export async function waitFor(
  check: () => Promise<string | null | boolean>,
  opts: { timeoutMs: number; intervalMs?: number; abort?: () => string | null },
): Promise<string | null> {
  const deadline = Date.now() + opts.timeoutMs;
  let last = 'not ready';
  for (;;) {
    const result = await check();
    if (result === null || result === true) return null;
    last = result === false ? 'not ready' : result;
    const aborted = opts.abort?.();
    if (aborted) return aborted;
    if (Date.now() >= deadline) return `${last} (gave up after ${Math.round(opts.timeoutMs / 1000)} s)`;
    await sleep(opts.intervalMs ?? 250);
  }
}
