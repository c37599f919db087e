import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import { createProxyMiddleware, type Plugin } from 'http-proxy-middleware';
import type { Logger } from '@crm/server-kit';
import type { GatewayConfig } from './config';
import { sendJson } from './json-response';
import { PROXY_TABLE, upstreamUrlSetting, type Middleware, type UpstreamName } from './proxy-table';
import { HTTP_MESSAGES, JWKS_PATH } from '@crm/server-kit';

export interface Upstream {
  name: UpstreamName;
  url: string;
  agent: http.Agent;
  /** Proxies the request as is: `req.url` must already be the service path. */
  proxy: Middleware;
}

const TIMED_OUT = Symbol('gateway.upstreamTimedOut');
type Marked = IncomingMessage & { [TIMED_OUT]?: boolean };

/** Connection failures mean "nobody is listening there": the service is down or restarting. */
const UNAVAILABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNABORTED',
]);

function errorAnswer(error: NodeJS.ErrnoException, req: IncomingMessage): [number, string] {
  if ((req as Marked)[TIMED_OUT]) return [504, HTTP_MESSAGES.gatewayTimeout];
  if (error.code && UNAVAILABLE.has(error.code)) return [503, HTTP_MESSAGES.unavailable];
  return [502, HTTP_MESSAGES.badGateway];
}

/**
 * Replaces http-proxy-middleware's default plugins (their logger builds a URL for every response,
 * and their error page is HTML): errors become JSON 502/503/504, outages are logged once, and an
 * upstream response is dropped when the client goes away so the upstream socket is not held.
 */
function gatewayProxyPlugin(name: UpstreamName, logger: Logger): Plugin {
  let failing = false;
  return (proxyServer) => {
    proxyServer.on('error', (error: NodeJS.ErrnoException, req, res) => {
      const [status, message] = errorAnswer(error, req);
      if (!failing) logger.warn({ upstream: name, code: error.code, status }, 'upstream request failed');
      failing = true;
      // `res` is a socket only for WebSocket upgrades, which the gateway does not proxy.
      if ('writeHead' in res) sendJson(res as ServerResponse, status, { message });
      else res.destroy();
    });
    proxyServer.on('proxyReq', (proxyReq, req) => {
      // http-proxy's own timeout handler aborts the request; this only remembers why, for the 504.
      proxyReq.once('timeout', () => {
        (req as Marked)[TIMED_OUT] = true;
      });
    });
    proxyServer.on('proxyRes', (proxyRes, req, res) => {
      // API answers carry personal and health data: no browser or intermediary may keep a copy
      // (set here, before http-proxy copies the upstream's headers to the client). The token keys
      // are public and meant to be cached: they keep the auth service's Cache-Control.
      if (req.url !== JWKS_PATH) proxyRes.headers['cache-control'] = 'no-store';
      if (failing) logger.info({ upstream: name }, 'upstream answering again');
      failing = false;
      res.once('close', () => {
        if (!res.writableEnded) proxyRes.destroy();
      });
    });
  };
}

export function createUpstreams(config: GatewayConfig, logger: Logger): Map<UpstreamName, Upstream> {
  const upstreams = new Map<UpstreamName, Upstream>();
  for (const name of new Set(PROXY_TABLE.map((route) => route.upstream))) {
    const url = String(config[upstreamUrlSetting(name)]).replace(/\/+$/, '');
    // Keep-alive pool per upstream: a new TCP connection per proxied request would cost more than
    // the whole rest of the proxy path. LIFO keeps few sockets hot instead of all of them lukewarm.
    const agentOptions: http.AgentOptions = {
      keepAlive: true,
      maxSockets: config.UPSTREAM_MAX_SOCKETS,
      maxFreeSockets: config.UPSTREAM_MAX_SOCKETS,
      scheduling: 'lifo',
      noDelay: true,
      // With a timeout set, Node closes an idle pooled socket 1 s before the upstream's announced
      // `Keep-Alive: timeout=N`, instead of reusing one the upstream is closing (ECONNRESET → 502).
      timeout: config.PROXY_TIMEOUT_MS,
    };
    const agent = url.startsWith('https:') ? new https.Agent(agentOptions) : new http.Agent(agentOptions);
    const proxy = createProxyMiddleware<IncomingMessage, ServerResponse>({
      target: url,
      changeOrigin: true,
      agent,
      proxyTimeout: config.PROXY_TIMEOUT_MS,
      // X-Forwarded-* are set by forwarded-headers.ts, which knows which proxies to trust.
      xfwd: false,
      ejectPlugins: true,
      plugins: [gatewayProxyPlugin(name, logger)],
    });
    upstreams.set(name, { name, url, agent, proxy: proxy as unknown as Middleware });
  }
  return upstreams;
}
