/**
 * The upstream of the gateway benchmark, run as its own process: a service built like the real ones
 * (server-kit's createHttpApp: helmet, pino-http, JSON parser, error handler) with one protected route
 * that verifies the JWT itself and answers a small JSON.
 */
import http from 'node:http';
import { createHttpApp, createLogger, durationToSeconds, requireAuth, TokenService } from '@crm/server-kit';

const port = Number(process.env.PORT);
const secret = process.env.JWT_SECRET;
if (!port || !secret) throw new Error('PORT and JWT_SECRET are required');

const tokens = new TokenService(secret, durationToSeconds('8h'));
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
