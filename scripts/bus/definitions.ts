/**
 * The RabbitMQ definitions of compose and of the development Kubernetes overlay, generated from the
 * event contracts (@crm/contracts broker-access.ts) so that the broker's users and permissions
 * cannot drift from the code: one user per deployable, allowed to publish only its own events and
 * to bind only those it consumes, plus an operator account, the events exchange and the audit
 * entries queue. Passwords are placeholders (`@@RABBITMQ_<NAME>_PASSWORD@@`) that the broker's boot
 * script (docker/rabbitmq/boot.sh) fills from the environment.
 *
 *   npm run bus:definitions                      rewrites the files (npx tsx scripts/bus/definitions.ts)
 *   npx tsx scripts/bus/definitions.ts --check   exits 1 when one is out of date
 *   npx tsx scripts/bus/definitions.ts --print   prints definitions for another broker (stdout), with
 *        the passwords of RABBITMQ_<NAME>_PASSWORD and EVENTS_EXCHANGE / QUEUE_PREFIX of the
 *        environment: `rabbitmqctl import_definitions < that.json` (docs/operations.md)
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  brokerDefinitions,
  brokerPasswordVariable,
  BUS_PARTICIPANTS,
  DEFAULT_EVENTS_EXCHANGE,
  escapeRegex,
  type BrokerDefinitions,
} from '@crm/contracts';
import { REPO_ROOT } from '../lib/paths';

/** The operator account's placeholders (the management UI's user: RABBITMQ_USER / RABBITMQ_PASSWORD). */
const ADMIN = { name: '@@RABBITMQ_USER@@', password: '@@RABBITMQ_PASSWORD@@' };
const QUEUE_PREFIX = 'crm';

/** Where the generated definitions go, each with the boot script next to it. */
export const TARGETS = ['docker/rabbitmq', 'deploy/k8s/overlays/dev/rabbitmq'] as const;
/** The boot script's one source; the Kubernetes overlay keeps a copy (kustomize reads files below it only). */
export const BOOT_SCRIPT = 'docker/rabbitmq/boot.sh';

export const placeholder = (variable: string) => `@@${variable}@@`;

/** The definitions with placeholders for compose and the development cluster (`crm.events`, prefix `crm`). */
export function deploymentDefinitions(): BrokerDefinitions {
  return brokerDefinitions({
    exchange: DEFAULT_EVENTS_EXCHANGE,
    queuePrefix: QUEUE_PREFIX,
    queuePrefixPattern: escapeRegex(QUEUE_PREFIX),
    password: (participant) => placeholder(brokerPasswordVariable(participant)),
    admin: ADMIN,
  });
}

/** The files as they should be: path (from the repository root) → content. */
export async function expectedFiles(root: string = REPO_ROOT): Promise<Map<string, string>> {
  // Formatted as `npx prettier --write` would (prettier 3 is an ES module: loaded here, not at the top).
  const prettier = await import('prettier');
  const boot = fs.readFileSync(path.join(root, BOOT_SCRIPT), 'utf8');
  const files = new Map<string, string>();
  for (const dir of TARGETS) {
    const filepath = path.join(root, dir, 'definitions.json');
    const options = (await prettier.resolveConfig(filepath)) ?? {};
    const json = await prettier.format(JSON.stringify(deploymentDefinitions()), { ...options, filepath });
    files.set(`${dir}/definitions.json`, json);
    if (`${dir}/boot.sh` !== BOOT_SCRIPT) files.set(`${dir}/boot.sh`, boot);
  }
  return files;
}

/** Rewrites the files, or (check) lists those out of date. */
export async function run(check: boolean, root: string = REPO_ROOT): Promise<string[]> {
  const stale: string[] = [];
  for (const [file, content] of await expectedFiles(root)) {
    const full = path.join(root, file);
    const current = fs.existsSync(full) ? fs.readFileSync(full, 'utf8') : undefined;
    if (current === content) continue;
    stale.push(file);
    if (!check) {
      fs.mkdirSync(path.dirname(full), { recursive: true });
      fs.writeFileSync(full, content, { mode: file.endsWith('.sh') ? 0o755 : 0o644 });
    }
  }
  return stale;
}

/** Definitions for an operator's broker, passwords from the environment (all required). */
export function printableDefinitions(env: NodeJS.ProcessEnv = process.env): BrokerDefinitions {
  const missing = BUS_PARTICIPANTS.map(brokerPasswordVariable).filter((name) => !env[name]);
  if (missing.length > 0) throw new Error(`set ${missing.join(', ')}`);
  const queuePrefix = env.QUEUE_PREFIX || QUEUE_PREFIX;
  return brokerDefinitions({
    exchange: env.EVENTS_EXCHANGE || DEFAULT_EVENTS_EXCHANGE,
    queuePrefix,
    queuePrefixPattern: escapeRegex(queuePrefix),
    password: (participant) => env[brokerPasswordVariable(participant)]!,
    vhost: env.RABBITMQ_VHOST || '/',
    declareVhost: false,
  });
}

if (require.main === module) {
  const args = process.argv.slice(2);
  if (args.includes('--print')) {
    try {
      process.stdout.write(`${JSON.stringify(printableDefinitions(), null, 2)}\n`);
    } catch (error) {
      console.error(`definitions: ${(error as Error).message}`);
      process.exit(1);
    }
  } else {
    const check = args.includes('--check');
    run(check).then(
      (stale) => {
        if (check && stale.length > 0) {
          console.error(`out of date: ${stale.join(', ')}; run npm run bus:definitions`);
          process.exit(1);
        }
        console.log(stale.length === 0 ? 'broker definitions: up to date' : `rewritten: ${stale.join(', ')}`);
      },
      (error: unknown) => {
        console.error(error instanceof Error ? error.message : error);
        process.exit(1);
      },
    );
  }
}
