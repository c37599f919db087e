import { BlockList, isIPv4, isIPv6 } from 'node:net';
import type { IncomingMessage } from 'node:http';

/**
 * Who may read `/metrics` by default: this machine and the private networks a cluster's pods and
 * Prometheus live in (loopback, RFC 1918, IPv6 unique-local). `METRICS_ALLOW_CIDRS` replaces it.
 */
export const DEFAULT_METRICS_ALLOW_CIDRS =
  '127.0.0.0/8,::1/128,10.0.0.0/8,172.16.0.0/12,192.168.0.0/16,fc00::/7';

/**
 * Headers a proxy adds on the way in. A scrape comes straight from Prometheus; a request carrying
 * one of these came through the gateway, an ingress or a load balancer (all inside the private
 * networks), i.e. from someone outside, and is refused whatever its peer address.
 */
export const FORWARDING_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'] as const;

export interface MetricsAllowList {
  /** The list as written (for messages). */
  readonly text: string;
  allows(address: string): boolean;
}

/** Parses `10.0.0.0/8,::1/128,192.168.1.7` (a bare address is one host); throws on anything else. */
export function parseAllowList(text: string): MetricsAllowList {
  const list = new BlockList();
  for (const raw of text.split(',')) {
    const item = raw.trim();
    if (!item) continue;
    const [address = '', bits, extra] = item.split('/');
    const family = isIPv4(address) ? 'ipv4' : isIPv6(address) ? 'ipv6' : undefined;
    const max = family === 'ipv4' ? 32 : 128;
    const prefix = bits === undefined ? max : Number(bits);
    if (!family || extra !== undefined || !/^\d{1,3}$/.test(String(prefix)) || prefix > max)
      throw new Error(`"${item}" is not an IPv4 or IPv6 address or CIDR range`);
    list.addSubnet(address, prefix, family);
  }
  return {
    text,
    allows(address: string) {
      const bare = address.startsWith('::ffff:') && isIPv4(address.slice(7)) ? address.slice(7) : address;
      if (isIPv4(bare)) return list.check(bare, 'ipv4');
      return isIPv6(bare) && list.check(bare, 'ipv6');
    },
  };
}

/** True when the text parses (for the configuration schema). */
export function isValidAllowList(text: string): boolean {
  try {
    parseAllowList(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Why a request may not read the metrics, or undefined when it may: it came through a proxy
 * (forwarding headers present), or its peer address is not in the allow-list. Only the socket's
 * peer counts: no header can make a caller look closer than it is.
 */
export function metricsRefusal(req: IncomingMessage, allow: MetricsAllowList): string | undefined {
  if (FORWARDING_HEADERS.some((name) => req.headers[name] !== undefined)) return 'forwarded';
  const peer = req.socket.remoteAddress ?? '';
  return allow.allows(peer) ? undefined : 'address';
}
