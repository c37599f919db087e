import net from 'node:net';

/**
 * Ports handed out below the kernel's ephemeral range (32768–60999 on Linux), so that neither an
 * outgoing connection nor another process's `listen(0)` can take one between the moment it is
 * chosen and the moment its server binds it. Each Jest worker gets its own slice, so two test
 * files running side by side never choose the same port either.
 */
const FIRST_PORT = 20_000;
const SLICE = 1_500;
const SLICES = 8;
const workerSlice = (Number(process.env.JEST_WORKER_ID ?? 0) || 0) % SLICES;
const sliceStart = FIRST_PORT + workerSlice * SLICE;
let next = Math.floor(Math.random() * SLICE);

const isFree = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

/**
 * A TCP port on 127.0.0.1, free now and not handed out before by this process (in this worker's
 * slice, see above), for a server a test starts of its own.
 */
export async function freePort(): Promise<number> {
  for (let tried = 0; tried < SLICE; tried += 1) {
    const port = sliceStart + (next % SLICE);
    next += 1;
    if (await isFree(port)) return port;
  }
  throw new Error(`no free port in ${sliceStart}–${sliceStart + SLICE - 1}`);
}
