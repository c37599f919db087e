/**
 * Runs the in-process product (auth, notifications, appointments and the gateway serving the built
 * frontends) until Ctrl-C, for trying the front end by hand or with a browser:
 *   npm run build -w @crm/shell && npx tsx e2e/support/dev-stack.ts
 * Prints the gateway URL and the staff accounts.
 */
import path from 'node:path';
import { applyDevEnv } from '../../scripts/lib/dev-env';
import { BOOTSTRAP, startStack } from '../../test-support/stack';

async function main(): Promise<void> {
  applyDevEnv(process.env, { nodeEnv: null });
  const stack = await startStack({
    components: ['auth', 'notifications', 'appointments'],
    env: { FRONTENDS_DIR: path.resolve(__dirname, '..', '..', 'frontends') },
  });
  console.log(`gateway: ${stack.gatewayUrl}`);
  console.log(`staff: ${JSON.stringify(BOOTSTRAP)}`);
  const stop = async () => {
    await stack.stop();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void main();
