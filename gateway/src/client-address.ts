import type { IncomingMessage } from 'node:http';

const CLIENT_IP = Symbol('gateway.clientIp');
type WithClientIp = IncomingMessage & { [CLIENT_IP]?: string };

/**
 * The client's address for rate limiting and X-Forwarded-For. With no trusted proxy (hops = 0) it
 * is the socket's peer, so a client cannot choose its own rate-limit key with a forged header.
 * With N trusted proxies it is the N-th address from the right of X-Forwarded-For.
 */
export function clientIp(req: IncomingMessage, trustedHops: number): string {
  const cached = (req as WithClientIp)[CLIENT_IP];
  if (cached !== undefined) return cached;
  let ip = req.socket.remoteAddress ?? 'unknown';
  if (trustedHops > 0) {
    const header = req.headers['x-forwarded-for'];
    const chain =
      typeof header === 'string'
        ? header
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
        : [];
    chain.push(ip);
    ip = chain[Math.max(0, chain.length - 1 - trustedHops)]!;
  }
  if (ip.startsWith('::ffff:')) ip = ip.slice(7);
  (req as WithClientIp)[CLIENT_IP] = ip;
  return ip;
}

/** True when the client reached us (or the trusted proxy in front of us) over TLS. */
export function isHttps(req: IncomingMessage, trustedHops: number): boolean {
  if ((req.socket as { encrypted?: boolean }).encrypted) return true;
  if (trustedHops === 0) return false;
  const proto = req.headers['x-forwarded-proto'];
  return typeof proto === 'string' && proto.split(',')[0]!.trim().toLowerCase() === 'https';
}
