/**
 * Metrics of the real deployables (docs/operations.md, "Metrics and alerts"): each answers
 * `GET /metrics` on its own port, the counters move as the test acts, nothing of it is reachable
 * through the gateway, and every metric the alert rules and the dashboard name is one the code
 * exports (collected from these live scrapes).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import amqp from 'amqplib';
import request from 'supertest';
import { parse } from 'yaml';
import { eventually } from '@crm/testing';
import { registeredPatient } from '../../test-support/patients';
import { slotAllocator } from '../../test-support/slots';
import { startStack, type Stack } from '../../test-support/stack';
import { signedInStaff } from '../../test-support/staff-accounts';

let stack: Stack;
let patientToken: string;
let adminToken: string;
let doctorToken: string;
const slots = slotAllocator(4);

beforeAll(async () => {
  stack = await startStack({ components: ['auth', 'notifications', 'appointments'] });
  const staff = await signedInStaff(stack.api);
  adminToken = staff.ADMIN.token;
  doctorToken = staff.DOCTOR.token;
  const patient = await registeredPatient(stack.api, staff.DOCTOR.token, { name: 'Paciente Métricas' });
  patientToken = await stack.signIn(patient.email, patient.password);
  await stack.components.notifications!.handle.consuming?.(30_000);
}, 90_000);
afterAll(async () => {
  await stack?.stop();
});

type Deployable = 'gateway' | 'auth' | 'appointments' | 'notifications';

/** One scrape, as Prometheus does it: straight to the deployable's port, no proxy in between. */
async function scrape(name: Deployable): Promise<string> {
  if (name === 'notifications') {
    // The e-mail worker listens for probes only; its app answers on a loopback socket here.
    const app = stack.components.notifications!.handle.app as Parameters<typeof request>[0];
    const response = await request(app).get('/metrics');
    expect(response.status).toBe(200);
    return response.text;
  }
  const base = name === 'gateway' ? stack.gatewayUrl : stack.components[name]!.url!;
  const response = await fetch(`${base}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.text();
}

/** The sum of the samples of `name` whose labels include all of `labels` (0 when none). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const labelText = line.slice(name.length).match(/^\{(.*)\}/)?.[1] ?? '';
    const found = Object.fromEntries(
      [...labelText.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([key, value]) => found[key] === value))
      total += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return total;
}

/** Every metric name a scrape exports (histograms with their _bucket, _sum and _count series). */
function exportedNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    names.add(name!);
    if (type === 'histogram' || type === 'summary')
      for (const suffix of ['_bucket', '_sum', '_count']) names.add(`${name}${suffix}`);
  }
  return names;
}

describe('GET /metrics on each deployable', () => {
  it('answers in Prometheus format with the HTTP, bus and process metrics, labelled by service', async () => {
    for (const name of ['gateway', 'auth', 'appointments', 'notifications'] as const) {
      const text = await scrape(name);
      expect(text).toContain(`service="${name}"`);
      expect(text).toMatch(/^# TYPE process_cpu_user_seconds_total counter$/m);
      expect(text).toMatch(/^# TYPE crm_http_requests_total counter$/m);
      expect(text).toMatch(/^# TYPE crm_http_request_duration_seconds histogram$/m);
    }
    const appointments = await scrape('appointments');
    for (const metric of ['crm_outbox_lag_seconds', 'crm_sweep_lag_seconds', 'crm_queue_messages'])
      expect(appointments).toMatch(new RegExp(`^${metric}\\{`, 'm'));
    expect(appointments).toMatch(/^crm_sweep_lag_seconds\{sweep="appointments-no-show-sweep"/m);
    expect(appointments).toMatch(/^crm_sweep_lag_seconds\{sweep="waiting-list-offers"/m);
    expect(await scrape('notifications')).toMatch(/^crm_sweep_lag_seconds\{sweep="reminders-due"/m);
    const prefix = stack.env.QUEUE_PREFIX!;
    const notifications = await eventually(async () => {
      const text = await scrape('notifications');
      return text.includes(`queue="${prefix}.notifications.appointment-mail.dlq"`) ? text : undefined;
    }, 15_000);
    expect(notifications).toMatch(
      new RegExp(
        `^crm_queue_messages\\{queue="${prefix}\\.notifications\\.appointment-mail",service="notifications"\\} \\d+$`,
        'm',
      ),
    );
    // Only its own queues: the access trail's queue is the audit service's.
    expect(await scrape('auth')).not.toContain(`queue="${prefix}.audit.entries"`);
  });

  it('counts a request by its route pattern and status class, never by its URL', async () => {
    const route = { method: 'GET', route: '/dates/currentDate', status_class: '2xx' };
    const before = sample(await scrape('appointments'), 'crm_http_requests_total', route);
    const atGateway = sample(await scrape('gateway'), 'crm_http_requests_total', {
      ...route,
      route: '/api/v1/dates/currentDate',
    });
    expect((await stack.api.get('/dates/currentDate', patientToken)).status).toBe(200);
    expect(sample(await scrape('appointments'), 'crm_http_requests_total', route)).toBe(before + 1);
    expect(
      sample(await scrape('gateway'), 'crm_http_requests_total', {
        ...route,
        route: '/api/v1/dates/currentDate',
      }),
    ).toBe(atGateway + 1);
    expect(
      sample(await scrape('appointments'), 'crm_http_request_duration_seconds_count', route),
    ).toBeGreaterThanOrEqual(before + 1);

    const raw = `no-such-thing-${Date.now()}`;
    expect((await stack.api.get(`/dates/${raw}`, patientToken)).status).toBe(404);
    for (const name of ['gateway', 'appointments'] as const) {
      const text = await scrape(name);
      expect(text).not.toContain(raw);
      expect(
        sample(text, 'crm_http_requests_total', { route: 'unmatched', status_class: '4xx' }),
      ).toBeGreaterThan(0);
    }
  });

  it('counts a failed sign-in at the auth service', async () => {
    const before = sample(await scrape('auth'), 'crm_auth_signin_failures_total');
    const attempt = await stack.api.post('/auth/signIn', {
      email: 'nadie-metricas@example.com',
      password: 'mala',
    });
    expect(attempt.status).toBe(401);
    expect(sample(await scrape('auth'), 'crm_auth_signin_failures_total')).toBe(before + 1);
    const refused = await stack.api.post('/auth/signIn/mfa', { mfaToken: 'x'.repeat(43), code: '123456' });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
    expect(sample(await scrape('auth'), 'crm_auth_second_factor_failures_total')).toBe(1);
    expect(await scrape('auth')).toMatch(/^crm_auth_signing_key_age_seconds\{service="auth"\} [\d.e+-]+$/m);
  });

  it('follows a booking: booked, published, consumed, its e-mail sent', async () => {
    const booked = { routing_key: 'appointments.appointment.booked.v1' };
    const appointmentsBefore = await scrape('appointments');
    const notificationsBefore = await scrape('notifications');
    // A patient of its own: a retried attempt books again (one live appointment per patient).
    const patient = await registeredPatient(stack.api, doctorToken, { name: 'Paciente Reserva' });
    const token = await stack.signIn(patient.email, patient.password);
    const response = await stack.api.post('/dates', { date: slots.next() }, token);
    expect(response.status).toBe(201);

    await eventually(
      async () => {
        const text = await scrape('appointments');
        return (
          sample(text, 'crm_bookings_total', { channel: 'patient' }) ===
            sample(appointmentsBefore, 'crm_bookings_total', { channel: 'patient' }) + 1 &&
          sample(text, 'crm_events_published_total', booked) ===
            sample(appointmentsBefore, 'crm_events_published_total', booked) + 1
        );
      },
      15_000,
      'booking counted and its event published',
    );
    const queue = `${stack.env.QUEUE_PREFIX}.notifications.appointment-mail`;
    await eventually(
      async () => {
        const text = await scrape('notifications');
        return (
          sample(text, 'crm_events_consumed_total', { ...booked, queue }) ===
            sample(notificationsBefore, 'crm_events_consumed_total', { ...booked, queue }) + 1 &&
          sample(text, 'crm_emails_sent_total', { event: booked.routing_key }) ===
            sample(notificationsBefore, 'crm_emails_sent_total', { event: booked.routing_key }) + 1
        );
      },
      20_000,
      'booked event handled and its e-mail counted',
    );
    // Published and removed from the outbox: nothing waits.
    await eventually(
      async () => sample(await scrape('appointments'), 'crm_outbox_lag_seconds') === 0,
      10_000,
    );
  });

  it('counts a dead-lettered event and shows it in the dead-letter queue depth', async () => {
    const queue = `${stack.env.QUEUE_PREFIX}.notifications.appointment-mail`;
    const key = { routing_key: 'appointments.appointment.booked.v1', queue };
    const before = sample(await scrape('notifications'), 'crm_events_dead_lettered_total', key);
    // A booked event from its real publisher whose data is not a booking: dead-lettered at once.
    const connection = await amqp.connect(stack.busUrl('appointments'));
    try {
      const channel = await connection.createConfirmChannel();
      const envelope = {
        id: crypto.randomUUID(),
        name: key.routing_key,
        occurredAt: new Date().toISOString(),
        correlationId: crypto.randomUUID(),
        data: { nothing: 'useful' },
      };
      channel.publish(stack.exchange, key.routing_key, Buffer.from(JSON.stringify(envelope)), {
        userId: 'appointments',
        messageId: envelope.id,
        persistent: true,
      });
      await channel.waitForConfirms();
    } finally {
      await connection.close();
    }
    await eventually(
      async () => sample(await scrape('notifications'), 'crm_events_dead_lettered_total', key) === before + 1,
      15_000,
      'dead letter counted',
    );
    await eventually(
      async () =>
        sample(await scrape('notifications'), 'crm_dead_letter_messages', { queue: `${queue}.dlq` }) >= 1,
      15_000,
      'dead-letter queue depth',
    );
  });
});

describe('/metrics is not for outsiders', () => {
  const refusedThroughGateway = [
    '/api/v1/metrics',
    '/api/v1/auth/metrics',
    '/api/v1/dates/metrics',
    '/api/v1/dates/../metrics',
    '/api/v1/%2e%2e/metrics',
    '/api/v1/dates/..%2f..%2fmetrics',
  ];

  it.each(refusedThroughGateway)('the gateway does not proxy a service’s metrics: %s', async (target) => {
    for (const token of [undefined, adminToken]) {
      const response = await fetch(`${stack.gatewayUrl}${target}`, {
        headers: token ? { authorization: `Bearer ${token}` } : {},
      });
      expect(response.status).not.toBe(200);
      expect(await response.text()).not.toContain('crm_http_requests_total');
    }
  });

  it('refuses a request that came through a proxy (X-Forwarded-For, Forwarded, X-Real-IP), at the gateway and at a service', async () => {
    for (const base of [stack.gatewayUrl, stack.components.auth!.url!]) {
      for (const header of <Record<string, string>[]>[
        { 'x-forwarded-for': '127.0.0.1' },
        { forwarded: 'for=127.0.0.1' },
        { 'x-real-ip': '10.0.0.1' },
      ]) {
        const response = await fetch(`${base}/metrics`, { headers: header });
        expect(response.status).toBe(403);
        expect(await response.json()).toEqual({ message: 'Forbidden' });
      }
    }
  });
});

describe('deploy/monitoring', () => {
  const monitoring = path.join(__dirname, '../../deploy/monitoring');

  /** Metric names in a PromQL expression (ours and Node's process metrics). */
  const namesIn = (expr: string) =>
    [...expr.matchAll(/\b((?:crm|process|nodejs)_[a-z0-9_]+)\b/g)].map((m) => m[1]!);

  it('every alert and dashboard expression names metrics a live scrape exports', async () => {
    const exported = new Set<string>();
    for (const name of ['gateway', 'auth', 'appointments', 'notifications'] as const)
      for (const metric of exportedNames(await scrape(name))) exported.add(metric);

    const rules = parse(readFileSync(path.join(monitoring, 'alerts.yml'), 'utf8')) as {
      groups: { name: string; rules: { alert: string; expr: string; labels: { severity: string } }[] }[];
    };
    const alerts = rules.groups.flatMap((group) => group.rules);
    expect(alerts.map((rule) => rule.alert)).toEqual(
      expect.arrayContaining([
        'OutboxLagging',
        'DeadLetterWaiting',
        'HighServerErrorRate',
        'BookingsWithoutBookingEmails',
        'SigningKeyNotRotated',
      ]),
    );
    const dashboard = JSON.parse(readFileSync(path.join(monitoring, 'grafana-dashboard.json'), 'utf8')) as {
      panels: { title: string; targets: { expr: string }[] }[];
    };
    const expressions = [
      ...alerts.map((rule) => [`alert ${rule.alert}`, rule.expr] as const),
      ...dashboard.panels.flatMap((panel) =>
        panel.targets.map((t) => [`panel ${panel.title}`, t.expr] as const),
      ),
    ];
    const unknown = expressions.flatMap(([where, expr]) => {
      const names = namesIn(expr);
      expect(names.length).toBeGreaterThan(0);
      return names.filter((name) => !exported.has(name)).map((name) => `${where}: ${name}`);
    });
    expect(unknown).toEqual([]);
    for (const rule of alerts) expect(['critical', 'warning', 'info']).toContain(rule.labels.severity);
  });
});
