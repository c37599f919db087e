/**
 * Runs the compose checks against a product already running on this machine (`npm start`):
 *
 *   npx tsx scripts/compose/checks/run-local.ts                    journey many:20 mail:30 race:3x10
 *   npx tsx scripts/compose/checks/run-local.ts journey still      the journey, then stillThere on it
 *   npx tsx scripts/compose/checks/run-local.ts still              stillThere on the last journey's snapshot
 *   npx tsx scripts/compose/checks/run-local.ts invites:10         a burst of invitation e-mails
 *
 * GATEWAY_URL (http://127.0.0.1:8080) and MAILPIT_URL (http://127.0.0.1:8025) say where; the staff
 * passwords are npm start's (BOOTSTRAP_*_PASSWORD, else .env, else the development defaults).
 * The journey's snapshot (and any bookMany patients) is kept in COMPOSE_CHECKS_SNAPSHOT
 * (default: the system's temporary folder) for a later `still`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { withDevEnv } from '../../lib/dev-env';
import {
  bookMany,
  type ComposeTarget,
  contestedSlots,
  countMails,
  type JourneySnapshot,
  mailBurst,
  productJourney,
  stillThere,
  verifyBookings,
} from './index';

const env = withDevEnv(process.env);
const target: ComposeTarget = {
  gatewayUrl: env.GATEWAY_URL ?? 'http://127.0.0.1:8080',
  mailApiUrl: env.MAILPIT_URL ?? 'http://127.0.0.1:8025',
  staffPasswords: {
    admin: env.BOOTSTRAP_ADMIN_PASSWORD!,
    doctor: env.BOOTSTRAP_DOCTOR_PASSWORD!,
    kiosk: env.BOOTSTRAP_KIOSK_PASSWORD!,
  },
  staffEmails: {
    admin: env.BOOTSTRAP_ADMIN_EMAIL!,
    doctor: env.BOOTSTRAP_DOCTOR_EMAIL!,
    kiosk: env.BOOTSTRAP_KIOSK_EMAIL!,
  },
};
const snapshotFile =
  env.COMPOSE_CHECKS_SNAPSHOT ?? path.join(os.tmpdir(), 'crm-compose-checks-snapshot.json');

interface Kept {
  journey?: JourneySnapshot;
  patients?: Parameters<typeof verifyBookings>[1];
}
const kept = (): Kept =>
  fs.existsSync(snapshotFile) ? JSON.parse(fs.readFileSync(snapshotFile, 'utf8')) : {};
const keep = (more: Kept) => fs.writeFileSync(snapshotFile, JSON.stringify({ ...kept(), ...more }, null, 2));

const number = (arg: string, fallback: number) => Number(arg.split(':')[1] ?? fallback);

async function run(arg: string): Promise<void> {
  console.log(`\n== ${arg}`);
  if (arg === 'journey') {
    const { results, snapshot } = await productJourney(target);
    keep({ journey: snapshot });
    console.log(`journey: ${results.length} steps in ${results.reduce((sum, r) => sum + r.ms, 0)} ms`);
  } else if (arg.startsWith('many')) {
    const outcome = await bookMany(target, number(arg, 20));
    for (const failure of outcome.failed) console.log(`  failed ${failure.email}: ${failure.reason}`);
    keep({ patients: outcome.patients });
    const counts = await verifyBookings(target, outcome.patients);
    if (counts.lost + counts.doubled + counts.mismatched + counts.sharedSlots > 0)
      throw new Error('bookings lost or doubled');
  } else if (arg.startsWith('mail') || arg.startsWith('invites')) {
    const kind = arg.startsWith('mail') ? 'kiosk-code' : 'invitation';
    const burst = await mailBurst(target, number(arg, 30), { kind });
    const counts = await countMails(target, burst);
    if (counts.missing + counts.duplicates > 0) throw new Error('e-mails lost or doubled');
  } else if (arg.startsWith('race')) {
    const [slots, contenders] = (arg.split(':')[1] ?? '3x10').split('x').map(Number);
    await contestedSlots(target, { slots, contenders });
  } else if (arg === 'still') {
    const { journey, patients } = kept();
    if (!journey) throw new Error(`no journey snapshot in ${snapshotFile}: run "journey" first`);
    await stillThere(target, journey, patients);
  } else {
    throw new Error(`unknown check "${arg}" (journey, many[:n], mail[:n], invites[:n], race[:SxC], still)`);
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  let failed = 0;
  for (const arg of args.length > 0 ? args : ['journey', 'many:20', 'mail:30', 'race:3x10']) {
    try {
      await run(arg);
    } catch (error) {
      failed += 1;
      console.log(`FAILED ${arg}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  process.exitCode = failed > 0 ? 1 : 0;
}

void main();
