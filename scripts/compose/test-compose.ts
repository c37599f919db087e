/**
 * npm run test:compose — the product as operators run it: `docker compose up --build -d` (build, then
 * up, each timed), then proven through the gateway on http://127.0.0.1:8080 only (GATEWAY_PORT to
 * move it), nothing started outside compose. Installs and starts the engine when it is missing, builds the local images when
 * the official ones cannot be pulled, and always ends with `down -v`. docs/operations.md describes it.
 */
import {
  CheckResult,
  ComposeTarget,
  bookMany,
  contestedSlots,
  countMails,
  mailBurst,
  productJourney,
  stillThere,
  verifyBookings,
} from './checks';
import { BUS_PARTICIPANTS } from '@crm/contracts';
import { frontendsLoad } from './browser-check';
import { ComposeStack } from './compose-stack';
import { docker, dockerOk, imageSizeMb } from './docker-cli';
import { ensureEngine } from './engine';
import { buildLocalImages } from './local-images';

const OFFICIAL_PROBE = 'mongo:7.0';
/** Every deployable has an image of its own, crm/<name> (the gateway and each service). */
const APP_IMAGES = BUS_PARTICIPANTS;
const IMAGE_TAG = 'dev';
const LIMIT_MB = { service: 250, gateway: 300 };

const started = Date.now();
const say = (line: string): void =>
  console.log(`[test:compose +${Math.round((Date.now() - started) / 1000)}s] ${line}`);
const figures: [string, string][] = [];

/** Official images when a registry answers (or they are here already), else the local ones. */
async function imageVariables(): Promise<Record<string, string>> {
  if (dockerOk(['image', 'inspect', OFFICIAL_PROBE])) return (say('images: official (present)'), {});
  try {
    await docker(['pull', OFFICIAL_PROBE], { timeoutMs: 60_000 });
    say('images: official (pulled)');
    return {};
  } catch (error) {
    const reason = String(error).trim().split('\n').pop()?.slice(0, 160);
    say(`images: local — ${OFFICIAL_PROBE} could not be pulled (${reason})`);
    figures.push(['infrastructure images', 'local (npm run compose:images)']);
    return buildLocalImages((line) => say(`  ${line}`));
  }
}

async function timed<T>(label: string, work: () => Promise<T>): Promise<T> {
  const t0 = Date.now();
  const value = await work();
  const seconds = ((Date.now() - t0) / 1000).toFixed(1);
  say(`${label}: ${seconds} s`);
  figures.push([label, `${seconds} s`]);
  return value;
}

function checkImageSizes(): void {
  for (const name of APP_IMAGES) {
    const mb = imageSizeMb(`crm/${name}:${IMAGE_TAG}`);
    const limit = name === 'gateway' ? LIMIT_MB.gateway : LIMIT_MB.service;
    figures.push([`image crm/${name}`, `${mb} MB (≤ ${limit})`]);
    if (mb > limit) throw new Error(`crm/${name}:${IMAGE_TAG} is ${mb} MB, over ${limit} MB`);
  }
}

function mailFigures(m: {
  arrived: number;
  expected: number;
  missing: number;
  duplicates: number;
  ms: number;
}): string {
  return `${m.arrived}/${m.expected} arrived in ${m.ms} ms, ${m.missing} missing, ${m.duplicates} duplicates`;
}

function report(results: CheckResult[]): void {
  for (const r of results) figures.push([r.name, r.detail]);
}

async function prove(stack: ComposeStack, gatewayUrl: string, mailApiUrl: string): Promise<void> {
  const stored = await stack.secrets([
    'BOOTSTRAP_ADMIN_PASSWORD',
    'BOOTSTRAP_DOCTOR_PASSWORD',
    'BOOTSTRAP_KIOSK_PASSWORD',
  ] as const);
  const passwords = {
    admin: stored.BOOTSTRAP_ADMIN_PASSWORD,
    doctor: stored.BOOTSTRAP_DOCTOR_PASSWORD,
    kiosk: stored.BOOTSTRAP_KIOSK_PASSWORD,
  };
  const t: ComposeTarget = { gatewayUrl, mailApiUrl, staffPasswords: passwords };

  say(
    'journey: sign-up, confirmation, booking e-mail with .ics, clinical record, kiosk walk-in, access trail',
  );
  const journey = await productJourney(t);
  report(journey.results);

  say('front ends in Chromium from the gateway container');
  for (const r of await frontendsLoad(gatewayUrl, {
    doctor: { email: 'doctor@crm.local', password: passwords.doctor },
    kiosk: { email: 'kiosk@crm.local', password: passwords.kiosk },
  }))
    figures.push([`browser: ${r.screen}`, `${r.remoteFiles} remote files, ${r.ms} ms`]);

  say('fault: docker kill of the appointments container during 50 bookings');
  const appointments = stack.containers('appointments');
  const bookings = await bookMany(t, 50, {
    onReady: () => {
      setTimeout(
        () =>
          void docker(['kill', ...appointments]).then(() =>
            stack.compose(['up', '-d', '--no-deps', 'appointments']),
          ),
        300,
      );
    },
  });
  await stack.waitHealthy();
  const booked = await verifyBookings(t, bookings.patients);
  figures.push([
    'kill appointments: 50 bookings',
    `${booked.exactlyOne} with exactly one, ${booked.lost} lost, ${booked.doubled} doubled (${bookings.retried} retried)`,
  ]);
  if (booked.lost + booked.doubled > 0 || booked.exactlyOne !== 50)
    throw new Error(`bookings after the kill: ${JSON.stringify(booked)}`);

  say('fault: docker compose restart rabbitmq during 100 e-mails');
  // 100 calls spread over about 15 s; the restart starts with the first of them.
  let restart: Promise<string> = Promise.resolve('');
  const burst = await mailBurst(t, 100, {
    parallel: 2,
    paceMs: 300,
    onReady: () => {
      restart = stack.compose(['restart', 'rabbitmq']);
    },
  });
  await restart;
  await stack.waitHealthy();
  const mails = await countMails(t, burst, { deadlineMs: 180_000 });
  figures.push(['restart rabbitmq: 100 e-mails', mailFigures(mails)]);
  if (mails.missing + mails.duplicates > 0) {
    await explainMissingMails(stack);
    throw new Error(`e-mails after the broker restart: ${JSON.stringify(mails)}`);
  }

  say('fault: docker compose down && docker compose up -d (volumes kept)');
  await timed('down, up -d, healthy again', async () => {
    const leftOver = await stack.down();
    if (leftOver) say(leftOver);
    await stack.compose(['up', '-d']);
    return stack.waitHealthy();
  });
  await stillThere(t, journey.snapshot, bookings.patients);
  figures.push(['after down/up', 'accounts, appointments and records still there']);

  say('scale: appointments=2, notifications=2');
  // Only the two services (`--no-deps`): a plain `up` also re-checks every other service's
  // dependencies, and refuses when one of their containers is briefly unhealthy on a loaded host.
  await stack.compose([
    'up',
    '-d',
    '--no-deps',
    '--scale',
    'appointments=2',
    '--scale',
    'notifications=2',
    'appointments',
    'notifications',
  ]);
  await stack.waitHealthy();
  const race = await contestedSlots(t, { slots: 5, contenders: 8 });
  const winners = race.races.reduce((sum, r) => sum + r.winners, 0);
  const conflicts = race.races.reduce((sum, r) => sum + r.conflicts, 0);
  figures.push([
    '2 replicas: 5 slots × 8 patients',
    `${winners} winners, ${conflicts} × 409 (${race.retried} retried)`,
  ]);
  const scaledBurst = await mailBurst(t, 40);
  const scaledMails = await countMails(t, scaledBurst, { deadlineMs: 120_000 });
  figures.push(['2 replicas: 40 e-mails', mailFigures(scaledMails)]);
  if (scaledMails.missing + scaledMails.duplicates > 0) {
    await explainMissingMails(stack);
    throw new Error(`e-mails with 2 workers: ${JSON.stringify(scaledMails)}`);
  }
}

/**
 * Where a missing e-mail may be: the e-mail queues' counts (waiting, unacknowledged, retry, DLQ)
 * and the warnings and errors of the services between the call and SMTP (no personal data in them).
 */
async function explainMissingMails(stack: ComposeStack): Promise<void> {
  const queues = await stack
    .compose([
      'exec',
      '-T',
      'rabbitmq',
      'rabbitmqctl',
      '-q',
      'list_queues',
      'name',
      'messages',
      'messages_unacknowledged',
      'consumers',
    ])
    .catch((error: unknown) => String(error));
  say(
    `e-mail queues (name, ready, unacked, consumers):\n${queues
      .split('\n')
      .filter((line) => line.includes('notifications.'))
      .join('\n')}`,
  );
  const logs = await stack
    .compose(['logs', '--no-color', '--tail=2000', 'notifications', 'auth'])
    .catch((error: unknown) => String(error));
  const problems = logs.split('\n').filter((line) => /"level":[456]0/.test(line));
  say(
    `warnings and errors of notifications and auth (${problems.length}, the last 80):\n${problems.slice(-80).join('\n')}`,
  );
}

function failureMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function main(): Promise<number> {
  await ensureEngine(say);
  const images = await imageVariables();
  const gatewayPort = process.env.GATEWAY_PORT ?? '8080';
  const mailPort = process.env.MAILPIT_HTTP_PORT ?? '18025';
  const stack = new ComposeStack({
    project: process.env.COMPOSE_TEST_PROJECT ?? 'crm-compose-test',
    env: {
      ...images,
      CRM_IMAGE_TAG: IMAGE_TAG,
      GATEWAY_PORT: gatewayPort,
      // Beside npm test's own Mailpit (1025, 8025) and RabbitMQ (5672, 25672).
      MAILPIT_HTTP_PORT: mailPort,
      MAILPIT_SMTP_PORT: process.env.MAILPIT_SMTP_PORT ?? '11025',
      RABBITMQ_MANAGEMENT_PORT: process.env.RABBITMQ_MANAGEMENT_PORT ?? '15673',
      // Beside npm start's Jaeger (16686), which stays up with the rest of its infrastructure.
      JAEGER_UI_PORT: process.env.JAEGER_UI_PORT ?? '16687',
      // Every call of the checks comes from this one address: hundreds of patients in a minute.
      RATE_LIMIT_MAX: process.env.RATE_LIMIT_MAX ?? '6000',
    },
  });
  let failure: unknown;
  try {
    await stack.down(['-v']).catch(() => undefined);
    await timed('images built (compose build)', () => stack.compose(['build']));
    checkImageSizes();
    // `up --build -d` in two steps, so that each has its figure: the build above, then up with the
    // images built, timed from its start (compose itself waits for each dependency's health).
    await timed('up to all healthy', async () => {
      await stack.compose(['up', '-d']);
      return stack.waitHealthy();
    });
    await prove(stack, `http://127.0.0.1:${gatewayPort}`, `http://127.0.0.1:${mailPort}`);
  } catch (error) {
    failure = error;
    say(`FAILED: ${failureMessage(error)}`);
    const logs = await stack.compose(['logs', '--tail=30']).catch((e: unknown) => String(e));
    console.log(logs.split('\n').slice(-200).join('\n'));
  } finally {
    const leftOver = await stack.down(['-v']).catch((error: unknown) => `down -v failed: ${String(error)}`);
    say(`down -v: done${leftOver ? ` (${leftOver})` : ''}`);
  }
  const width = Math.max(...figures.map(([k]) => k.length));
  console.log(`\ntest:compose summary (${Math.round((Date.now() - started) / 1000)} s)`);
  for (const [key, value] of figures) console.log(`  ${key.padEnd(width)}  ${value}`);
  // The reason again, last: CI shows the end of the output, after the containers' logs.
  console.log(failure ? `test:compose: FAILED: ${failureMessage(failure)}` : 'test:compose: passed');
  return failure ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
