/**
 * Stops what scripts/infra-up.ts started (recorded in .infra/run), nothing else.
 *   tsx scripts/infra-down.ts [name ...]   names: ferretdb, mongod, mailpit, mail-catcher, redis,
 *                                          rabbitmq, postgres (default: all recorded)
 */
import { stopInfrastructure } from './lib/infra';

const names = process.argv.slice(2).filter((a) => !a.startsWith('-'));
stopInfrastructure(names.length > 0 ? names : undefined)
  .then(() => process.exit(0))
  .catch((err: unknown) => {
    console.error(`infra-down: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
