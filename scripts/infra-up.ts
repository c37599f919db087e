/**
 * npm run infra:up — brings up whatever is missing of the local infrastructure (MongoDB-compatible
 * server, RabbitMQ, Redis, PostgreSQL for FerretDB, SMTP catcher with Mailpit's API). Idempotent.
 *
 *   --build-tools   also build the cached Go binaries (FerretDB, Mailpit, Jaeger) if they are missing,
 *                   even when the services are already up (CI does this ahead of the tests)
 *   --jaeger        also bring up Jaeger (traces; `npm start` does), built once like Mailpit
 */
import { ensureInfrastructure, InfrastructureError } from './lib/infra';
import { infraDir, rel } from './lib/paths';

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    console.log('usage: tsx scripts/infra-up.ts [--build-tools] [--jaeger]');
    return 0;
  }
  const unknown = args.filter((a) => a !== '--build-tools' && a !== '--jaeger');
  if (unknown.length > 0) {
    console.error(`infra-up: unknown argument(s): ${unknown.join(' ')}`);
    return 2;
  }
  const t0 = Date.now();
  try {
    const { started } = await ensureInfrastructure({
      buildTools: args.includes('--build-tools'),
      jaeger: args.includes('--jaeger'),
    });
    const took = ((Date.now() - t0) / 1000).toFixed(1);
    console.log(
      started.length > 0
        ? `infra: ready in ${took} s; started ${started.join(', ')} (stop with: npx tsx scripts/infra-down.ts)`
        : `infra: ready in ${took} s; everything was already up`,
    );
    return 0;
  } catch (err) {
    if (err instanceof InfrastructureError) {
      console.error(`infra: FAILED: ${err.message}`);
      if (err.started.length > 0)
        console.error(`infra: left running: ${err.started.join(', ')} (run files in ${rel(infraDir())}/run)`);
    } else {
      console.error(`infra: FAILED: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    }
    return 1;
  }
}

main().then((code) => process.exit(code));
