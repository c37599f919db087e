import { Router } from 'express';

export interface ReadinessCheck {
  name: string;
  /** Resolves true when the dependency is usable; must answer quickly (it is polled by probes). */
  check: () => Promise<boolean> | boolean;
}

const CHECK_TIMEOUT_MS = 1500;

async function runCheck({ name, check }: ReadinessCheck): Promise<[string, boolean]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), CHECK_TIMEOUT_MS);
  });
  try {
    return [name, await Promise.race([Promise.resolve().then(check), timeout])];
  } catch {
    return [name, false];
  } finally {
    clearTimeout(timer);
  }
}

/** `/healthz`: the process is alive. `/readyz`: every dependency it needs answers. */
export function healthRoutes(checks: ReadinessCheck[]): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const results = Object.fromEntries(await Promise.all(checks.map(runCheck)));
    const ready = Object.values(results).every(Boolean);
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not ready', checks: results });
  });
  return router;
}
