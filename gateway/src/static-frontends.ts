import path from 'node:path';
import type { ServerResponse } from 'node:http';
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { shellDocumentLoader } from './shell-document';

/**
 * Federated remotes, served under /mf/<name>/ from frontends/<name>/dist (docs/architecture.md#containers).
 */
export const FRONTEND_REMOTES = ['backoffice', 'kiosk'] as const;

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

/** Vite's output name: `<name>-<content hash>.<ext>`, directly in `assets/` (its hash is 8 characters). */
const HASHED_NAME = /-[\w-]{6,}\.[a-z0-9]+$/i;

/**
 * Files Vite names by their content (`assets/<name>-<hash>.<ext>`) never change, so browsers keep them
 * a year. Everything else keeps its name across builds and must be revalidated: index.html,
 * remoteEntry.js, and the files copied from `public/` as they are, such as
 * `assets/images/logo.png` (else users would keep an old logo, or mix an old shell with new remotes).
 */
export function isHashedAsset(relativePath: string): boolean {
  const segments = relativePath.split(/[\\/]/);
  return segments.length === 2 && segments[0] === 'assets' && HASHED_NAME.test(segments[1]!);
}

function cacheHeadersFor(root: string) {
  return (res: ServerResponse, filePath: string): void => {
    res.setHeader('Cache-Control', isHashedAsset(path.relative(root, filePath)) ? IMMUTABLE : REVALIDATE);
  };
}

function staticDir(root: string) {
  // index/redirect off: directories are never listed or redirected; "/" is the SPA fallback's job.
  // A missing directory is fine: serve-static just finds nothing and passes the request on.
  return express.static(root, {
    index: false,
    redirect: false,
    cacheControl: false,
    setHeaders: cacheHeadersFor(root),
  });
}

/** Only browser navigations to app routes get the shell: GET/HEAD, wants HTML, no file extension. */
export function wantsSpaFallback(req: Request): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  if (
    req.path.startsWith('/mf/') ||
    req.path === '/mf' ||
    req.path.startsWith('/api/') ||
    req.path === '/api'
  )
    return false;
  if (!/\btext\/html\b/.test(req.headers.accept ?? '')) return false;
  const lastSegment = req.path.slice(req.path.lastIndexOf('/') + 1);
  return !lastSegment.includes('.');
}

/**
 * The shell's index.html, with a CSP that lets its own inline scripts run (the render-blocking route
 * flag is inline, so the first screen does not wait for a request; see
 * frontends/shell/build/prerender-first-screens.ts) and nothing else inline. Until the shell is built
 * the answer is 503.
 */
function shellDocument(file: string, formTargets: readonly string[]) {
  const load = shellDocumentLoader(file, formTargets);
  return (_req: Request, res: Response, next: NextFunction) => {
    load().then(
      (document) => {
        res.setHeader('Content-Security-Policy', document.contentSecurityPolicy);
        res.setHeader('Cache-Control', REVALIDATE);
        // Set, Express answers a matching If-None-Match with 304 instead of hashing the body again.
        res.setHeader('ETag', document.etag);
        res.type('html').send(document.body);
      },
      (error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT' && error.code !== 'ENOTDIR') return next(error);
        res
          .status(503)
          .type('text/plain')
          .send('El sitio se está preparando. Inténtelo de nuevo en un momento.');
      },
    );
  };
}

/**
 * `/` serves the shell (frontends/shell/dist) with a fallback to its index.html for client-side
 * routes such as `/faqs`; `/mf/<remote>/` serves a remote with no fallback (a missing chunk must 404,
 * not turn into HTML). Until a frontend is built the gateway answers 404, or 503 for app routes.
 */
export function staticFrontends(frontendsDir: string, formTargets: readonly string[] = []): Router {
  const router = Router();
  for (const remote of FRONTEND_REMOTES) {
    router.use(`/mf/${remote}`, staticDir(path.join(frontendsDir, remote, 'dist')));
  }
  const shellDist = path.join(frontendsDir, 'shell', 'dist');
  const serveShell = shellDocument(path.join(shellDist, 'index.html'), formTargets);
  router.get('/index.html', serveShell);
  router.use(staticDir(shellDist));
  router.use((req: Request, res: Response, next) =>
    wantsSpaFallback(req) ? serveShell(req, res, next) : next(),
  );
  return router;
}
