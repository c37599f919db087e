/**
 * The upstream of the gateway benchmark, run as its own process: a service built like the real ones
 * (server-kit's createHttpApp: helmet, the request log line, JSON parser, error handler) with one protected route
 * that verifies the JWT itself and answers a small JSON.
 */
import http from 'node:http';
import { createHttpApp, createLogger, requireAuth, StaticKeys, TokenService } from '@crm/server-kit';

const port = Number(process.env.PORT);
const publicKeys = process.env.JWT_PUBLIC_KEYS;
if (!port || !publicKeys) throw new Error('PORT and JWT_PUBLIC_KEYS are required');

const tokens = new TokenService(StaticKeys.fromJwks(publicKeys));
const app = createHttpApp({
  logger: createLogger('bench-upstream', process.env.LOG_LEVEL ?? 'warn'),
  readiness: [],
  routes: (router) => {
    router.get('/dates/currentDate', requireAuth(tokens), (req, res) => {
      res.json({ date: '2025-06-02T09:15:00.000Z', user: req.user?.id });
    });
  },
});

http.createServer(app).listen(port, '127.0.0.1', () => {
  process.send?.('ready');
});
