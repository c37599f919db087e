/**
 * The reference of the gateway benchmark: the least a Node proxy can do, in its own process. It
 * forwards every request to UPSTREAM_URL over a keep-alive pool and pipes the answer back, with no
 * check at all (no JWT, no session or rate limit, no headers of its own). What the real gateway costs
 * beyond this is the price of its checks; what this costs beyond the direct call is the price of one
 * more Node process in the path on this machine.
 */
import http from 'node:http';

const port = Number(process.env.PORT);
const upstream = new URL(process.env.UPSTREAM_URL ?? '');
if (!port || !upstream.port) throw new Error('PORT and UPSTREAM_URL are required');

const agent = new http.Agent({ keepAlive: true, maxSockets: 256, scheduling: 'lifo' });

http
  .createServer((req, res) => {
    const forwarded = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
        agent,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forwarded.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(forwarded);
  })
  .listen(port, '127.0.0.1', () => process.send?.('ready'));
