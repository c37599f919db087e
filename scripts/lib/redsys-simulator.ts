/**
 * The local Redsys simulator as a process (`npm run infra:up` starts it like Mailpit):
 *   tsx scripts/lib/redsys-simulator.ts --listen 127.0.0.1:4090
 * It accepts the merchant REDSYS_MERCHANT_CODE signing with REDSYS_SECRET_KEY (the development
 * defaults: the sandbox merchant and the published test key). See packages/testing/src/redsys-simulator.ts.
 */
import { startRedsysSimulator } from '../../packages/testing/src/redsys-simulator';
import { applyDevEnv } from './dev-env';

async function main() {
  const env = applyDevEnv({ ...process.env });
  const at = process.argv.indexOf('--listen');
  const [host, port] = (at >= 0 ? process.argv[at + 1]! : '127.0.0.1:4090').split(':');
  const simulator = await startRedsysSimulator({
    secretKey: env.REDSYS_SECRET_KEY!,
    merchantCode: env.REDSYS_MERCHANT_CODE!,
    host,
    port: Number(port),
  });
  console.log(`redsys simulator listening on ${host}:${port} (${simulator.url})`);
  const stop = () => void simulator.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

void main();
