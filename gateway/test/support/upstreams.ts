import http from 'node:http';
import express from 'express';
import { createHttpApp, createLogger } from '@crm/server-kit';
import { listen, type RunningServer } from '@crm/testing';

/** What an echo upstream answers: who it is, the path it was asked for and the headers it got. */
export interface Echo {
  upstream: string;
  path: string;
  method: string;
  headers: Record<string, string | string[] | undefined>;
  body?: unknown;
}

/**
 * A service as the gateway sees it, built with server-kit's real app factory (helmet, JSON body
 * limit 100kb, error handler): it echoes path, method, headers and the parsed body of every call
 * (401 for a sign-in body whose password is "wrong").
 */
export async function startEchoUpstream(name: string): Promise<RunningServer> {
  const app = createHttpApp({
    logger: createLogger(`upstream-${name}`, 'silent'),
    readiness: [],
    routes: (router) => {
      router.use((req, res) => {
        const echo: Echo = {
          upstream: name,
          path: req.originalUrl,
          method: req.method,
          headers: req.headers,
          body: req.body,
        };
        // A sign-in with the password "wrong" fails, as the auth service would answer it.
        const failed = (req.body as { password?: unknown } | undefined)?.password === 'wrong';
        res.status(failed ? 401 : 200).json(echo);
      });
    },
  });
  return listen(app);
}

/** An upstream that accepts requests and never answers (for the gateway's timeout). */
export async function startSilentUpstream(): Promise<RunningServer> {
  const app = express();
  app.use(() => undefined);
  return listen(app);
}

/** A port on which nobody listens. */
export async function closedPortUrl(): Promise<string> {
  const server = await listen(() => undefined);
  await server.close();
  return server.url;
}

/** A request sent exactly as written (fetch would normalise the path or the body framing). */
export function rawRequest(
  url: string,
  options: {
    method?: string;
    path: string;
    headers?: Record<string, string>;
    body?: string | Buffer | Array<string | Buffer>;
    keepOpen?: boolean;
  },
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: options.headers,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    const body = options.body;
    if (Array.isArray(body)) for (const part of body) req.write(part);
    else if (body !== undefined) req.write(body);
    // keepOpen: the request body is left unfinished, as a client still uploading would.
    if (!options.keepOpen) req.end();
  });
}
