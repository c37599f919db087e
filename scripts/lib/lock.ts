import fs from 'node:fs';
import path from 'node:path';
import { isAlive } from './processes';
import { sleep } from './probes';

/**
 * A cross-process lock file (O_EXCL) holding the owner's pid; a lock whose owner is dead is taken
 * over. Serialises concurrent `infra:up` / `npm test` / `npm start` runs in one tree.
 */
export async function withFileLock<T>(
  file: string,
  fn: () => Promise<T>,
  opts: { timeoutMs: number; onWait?: (ownerPid: number) => void },
): Promise<T> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const deadline = Date.now() + opts.timeoutMs;
  let told = false;
  for (;;) {
    try {
      const fd = fs.openSync(file, 'wx');
      fs.writeSync(fd, `${process.pid}\n`);
      fs.closeSync(fd);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    let owner = NaN;
    try {
      owner = Number(fs.readFileSync(file, 'utf8').trim());
    } catch {
      continue; // released meanwhile
    }
    if (!Number.isInteger(owner) || owner <= 0) {
      // Empty: the owner is between open and write, or died right there.
      let age = 0;
      try {
        age = Date.now() - fs.statSync(file).mtimeMs;
      } catch {
        continue;
      }
      if (age > 5000) fs.rmSync(file, { force: true });
      else await sleep(100);
      continue;
    }
    if (owner === process.pid || !isAlive(owner)) {
      fs.rmSync(file, { force: true }); // stale: its owner is gone
      continue;
    }
    if (!told) {
      opts.onWait?.(owner);
      told = true;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for lock ${file} held by pid ${owner}`);
    await sleep(300);
  }
  const release = (): void => {
    try {
      if (fs.readFileSync(file, 'utf8').trim() === String(process.pid)) fs.rmSync(file, { force: true });
    } catch {
      // already gone
    }
  };
  process.once('exit', release);
  try {
    return await fn();
  } finally {
    process.removeListener('exit', release);
    release();
  }
}
