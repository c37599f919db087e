// First: the SDK (in-memory spans) and the HTTP instrumentation, before the stack loads.
import { spans } from '../../../packages/server-kit/test/tracing/in-memory';
import { SpanKind } from '@opentelemetry/api';
import { eventually } from '@crm/testing';
import { parentIdOf, type ReadableSpan } from '@crm/server-kit/tracing-testing';
import { slotAllocator } from '../../../test-support/slots';
import type { Stack } from '../../../test-support/stack';
import { appointmentsTestStack, type TestPatient } from './support/people';

/**
 * One booking is one trace: the gateway's request span → appointments' request span → the outbox
 * relay's publish span (from the traceparent stored with the outbox entry) → the e-mail worker's
 * consumer span (from the message's traceparent header) → the SMTP send. Real gateway, services,
 * RabbitMQ, database and SMTP catcher in this process; spans kept in memory. The trace id is the
 * X-Request-Id the gateway answers with.
 */
let stack: Stack;
let patients: TestPatient[];
const slots = slotAllocator(4);

// A patient per try (a retried test books again: the first try's booking stands).
let tries = 0;
appointmentsTestStack('trace', 3, (started) => ({ stack, patients } = started));

const BOOKED = 'appointments.appointment.booked.v1';

function chainOf(span: ReadableSpan, all: ReadableSpan[]): ReadableSpan[] {
  const byId = new Map(all.map((s) => [s.spanContext().spanId, s]));
  const chain: ReadableSpan[] = [];
  for (let at: ReadableSpan | undefined = span; at; at = byId.get(parentIdOf(at) ?? '')) chain.push(at);
  return chain;
}

describe('a booking traced end to end', () => {
  it('gives one trace from the gateway to the e-mail sent, with each step the child of the one before', async () => {
    const patient = patients[tries++ % patients.length];
    spans.reset();
    const booked = await stack.api.post('/dates', { date: slots.next() }, patient!.token);
    expect(booked.status).toBe(201);
    const traceId = booked.headers.get('x-request-id')!;
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    await stack.mail.waitForMessagesTo(patient!.email, 1);

    const send = await eventually(
      async () => {
        return spans
          .getFinishedSpans()
          .find((s) => s.name === 'smtp send' && s.spanContext().traceId === traceId);
      },
      20_000,
      'smtp send span',
    );
    const trace = spans.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
    const chain = chainOf(send, trace).reverse();
    const names = chain.map((s) => `${SpanKind[s.kind]} ${s.name}`);

    // Root: the gateway's server span (it starts the trace; its id is the X-Request-Id), and
    // appointments' own server span right under it.
    expect(chain[0]!.kind).toBe(SpanKind.SERVER);
    expect(parentIdOf(chain[0]!)).toBeUndefined();
    const serverSpans = chain.filter((s) => s.kind === SpanKind.SERVER);
    expect(serverSpans.map((s) => s.attributes['url.path'])).toEqual(['/api/v1/dates', '/dates']);
    expect(serverSpans.map((s) => s.name)).toEqual(['POST appointments', 'POST /dates']);
    expect(chain[1]).toBe(serverSpans[1]);
    // The relay's publish (PRODUCER) sits under appointments' request, the consumer right under it.
    const publish = chain.find((s) => s.name === `publish ${BOOKED}`)!;
    expect(publish.kind).toBe(SpanKind.PRODUCER);
    expect(chain.indexOf(publish)).toBeGreaterThan(chain.indexOf(serverSpans[1]!));
    const consume = chain[chain.indexOf(publish) + 1]!;
    expect(consume.kind).toBe(SpanKind.CONSUMER);
    expect(consume.name).toBe(`process ${BOOKED}`);
    expect(String(consume.attributes['messaging.destination.name'])).toMatch(/\.notifications\./);
    expect(consume.attributes['crm.delivery.outcome']).toBe('handled');
    // The e-mail is sent within the consumer's span.
    expect(names[names.length - 1]).toBe('CLIENT smtp send');
    expect(send.attributes['network.protocol.name']).toBe('smtp');
    expect(JSON.stringify(send.attributes)).not.toContain(patient!.email);
  });
});
