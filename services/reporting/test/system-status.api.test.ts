import {
  configCentreUpdated,
  type AuditPage,
  type DeadLetterView,
  type SystemStatusView,
} from '@crm/contracts';
import { createEnvelope } from '@crm/event-bus';
import { eventually, mintToken, publishEnvelopes, uniqueId } from '@crm/testing';
import { systemCheckConsumer } from '../../../test-support/failing-consumer';
import { startStack, type Stack } from '../../../test-support/stack';

/**
 * "Estado del sistema" through the gateway on a real broker: a consumer (as the appointments
 * broker user, on a queue of its own) fails until its message is dead-lettered; the ADMIN sees it
 * with its reason, sends it back once (the consumer now succeeds, a second time is 404), discards
 * another with a reason, and finds both in the access trail; a DOCTOR gets 403.
 */
let stack: Stack;
let consumer: Awaited<ReturnType<typeof systemCheckConsumer>> | undefined;
let failing = true;
const handled: string[] = [];
const admin = mintToken({ id: uniqueId(), rol: 'ADMIN' });
const doctor = mintToken({ id: uniqueId(), rol: 'DOCTOR' });
let queue: string;

const deadLetters = () =>
  stack.api.get<{ deadLetters: DeadLetterView[] }>(`/system/dead-letters?queue=${queue}`, admin);

async function deadLetterOf(eventId: string): Promise<DeadLetterView> {
  return eventually(
    async () => (await deadLetters()).body.deadLetters?.find((d) => d.eventId === eventId),
    20_000,
    `event ${eventId} in ${queue}.dlq`,
  );
}

beforeAll(async () => {
  stack = await startStack({ components: ['audit', 'reporting'] });
  consumer = await systemCheckConsumer(
    stack,
    (event) => {
      if (failing) throw new Error('the centre profile could not be read');
      handled.push(event.id);
    },
    { maxAttempts: 2, retryDelayMs: [100] },
  );
  queue = consumer.queue;
}, 90_000);

afterAll(async () => {
  await consumer?.close();
  await stack?.stop();
});

it('lists a dead letter with its reason, sends it back once, discards another with a reason; both in the trail', async () => {
  const first = createEnvelope(configCentreUpdated, { version: 2 }, uniqueId());
  const second = createEnvelope(configCentreUpdated, { version: 3 }, uniqueId());
  await publishEnvelopes(stack.busUrl, stack.exchange, [first, second]);

  const letter = await deadLetterOf(first.id);
  await deadLetterOf(second.id);
  expect(letter).toMatchObject({
    queue,
    messageId: first.id,
    eventId: first.id,
    event: 'config.centre.updated.v1',
    routingKey: 'config.centre.updated.v1',
    attempts: 2,
    publishedBy: 'config',
  });
  expect(letter.reason).toMatch(/handler failed 2 times: Error: the centre profile could not be read/);
  expect(Date.parse(letter.deadLetteredAt!)).toBeGreaterThan(Date.now() - 60_000);
  // The list names the event, never its data.
  expect(JSON.stringify(letter)).not.toContain('"data"');

  // The status shows the queue's dead letters and the deployables.
  const status = await stack.api.get<SystemStatusView>('/system/status', admin);
  expect(status.status).toBe(200);
  expect(status.body.deployables.find((d) => d.name === 'gateway')).toMatchObject({ readiness: 'ready' });
  expect(status.body.deployables.find((d) => d.name === 'reporting')).toMatchObject({ readiness: 'ready' });
  expect(status.body.deployables.find((d) => d.name === 'audit')?.version).toEqual(expect.any(String));
  expect(status.body.deployables.find((d) => d.name === 'reporting')?.outbox).toMatchObject({
    pending: expect.any(Number),
  });
  expect(status.body.queues.find((q) => q.queue === queue)).toMatchObject({ deadLetters: 2, consumers: 1 });

  // A DOCTOR may not look or act; nobody without a token.
  expect((await stack.api.get('/system/status', doctor)).status).toBe(403);
  expect((await stack.api.get('/system/dead-letters', doctor)).status).toBe(403);
  const base = `/system/dead-letters/${queue}/${first.id}`;
  expect((await stack.api.post(`${base}/redeliver`, {}, doctor)).status).toBe(403);
  expect((await stack.api.post(`${base}/discard`, { reason: 'no' }, doctor)).status).toBe(403);
  expect((await stack.api.get('/system/status')).status).toBe(401);
  // A queue outside the known list, and a message that is not there.
  expect(
    (await stack.api.post(`/system/dead-letters/other.appointments.x/${first.id}/redeliver`, {}, admin))
      .status,
  ).toBe(404);
  expect((await stack.api.post(`/system/dead-letters/${queue}/no-such-id/redeliver`, {}, admin)).status).toBe(
    404,
  );

  // Redeliver: the consumer succeeds now, the message leaves the dead letters, a second time is 404.
  failing = false;
  const redelivered = await stack.api.post(`${base}/redeliver`, { reason: 'perfil corregido' }, admin);
  expect(redelivered.status).toBe(200);
  await eventually(
    async () => handled.includes(first.id) || undefined,
    10_000,
    'the redelivered event handled',
  );
  expect((await stack.api.post(`${base}/redeliver`, {}, admin)).status).toBe(404);
  expect((await deadLetters()).body.deadLetters.map((d) => d.eventId)).toEqual([second.id]);

  // Discard needs a reason: 400 on `reason`, and nothing changes.
  const other = `/system/dead-letters/${queue}/${second.id}/discard`;
  const without = await stack.api.post<{ message: string; errors: { field?: string }[] }>(other, {}, admin);
  expect(without.status).toBe(400);
  expect(without.body.errors[0]?.field).toBe('reason');
  expect((await deadLetters()).body.deadLetters.map((d) => d.eventId)).toEqual([second.id]);
  const discarded = await stack.api.post(other, { reason: 'Evento de prueba, sin efecto' }, admin);
  expect(discarded.status).toBe(200);
  expect((await deadLetters()).body.deadLetters).toEqual([]);
  expect(handled).not.toContain(second.id);

  // Both in the access trail: who, what, the reason.
  const trail = await eventually(
    async () => {
      const page = await stack.api.get<AuditPage>('/audit?action=system.dead-letter.discard', admin);
      const redo = await stack.api.get<AuditPage>('/audit?action=system.dead-letter.redeliver', admin);
      const entries = [...(page.body.entries ?? []), ...(redo.body.entries ?? [])];
      return entries.length >= 2 ? entries : undefined;
    },
    20_000,
    'both actions in the access trail',
  );
  expect(trail).toEqual(
    expect.arrayContaining([
      expect.objectContaining({
        action: 'system.dead-letter.discard',
        actorRol: 'ADMIN',
        resource: 'dead-letter',
        resourceId: `${queue}/${second.id}`,
        reason: 'Evento de prueba, sin efecto',
      }),
      expect.objectContaining({
        action: 'system.dead-letter.redeliver',
        actorRol: 'ADMIN',
        resourceId: `${queue}/${first.id}`,
        reason: 'perfil corregido',
      }),
    ]),
  );
}, 120_000);
