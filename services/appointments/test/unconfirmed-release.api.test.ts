import { listenForMessages } from '@crm/testing';
import { startStack, uniqueEmail, type Stack } from '../../../test-support/stack';
import type { AppointmentsService } from '../src/app';
import { UnconfirmedRelease } from '../src/domain/unconfirmed-release';
import { bookedAt, minutesFromNow } from './support/fixtures';
import { appointmentsStackReady, createPatients, staffTokens } from './support/people';

/**
 * A patient's own web booking is released, with an e-mail, when their account is still
 * unconfirmed 24 hours after booking or 2 hours before the slot, whichever comes first. Never for a
 * confirmed account or a staff booking; once, with two replicas sweeping.
 */
let stack: Stack;
const service = () => stack.components.appointments!.handle as AppointmentsService;

beforeAll(async () => {
  stack = await startStack({
    components: ['auth', 'notifications', 'appointments'],
    // Only the test's own sweeps (two replicas at once); the service's timer would take a release.
    env: { UNCONFIRMED_RELEASE_INTERVAL_MS: String(3_600_000) },
  });
  await appointmentsStackReady(stack);
}, 60_000);
afterAll(async () => {
  await stack?.stop();
});

/** A patient who signed up and never confirmed, once the appointments service knows it. */
async function unconfirmedPatient(label: string) {
  const email = uniqueEmail(label);
  const response = await stack.api.post('/auth/signUp', {
    name: `Paciente ${label}`,
    phone: '612345678',
    email,
    password: 'contraseña-sin-confirmar',
  });
  expect(response.status).toBe(201);
  const id = response.body.id as string;
  for (let i = 0; (await service().models.Patient.findById(id).lean())?.confirmed !== false; i++) {
    if (i > 100) throw new Error('the patients read model did not learn the account is unconfirmed');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { id, name: `Paciente ${label}`, email };
}

it('releases web bookings of unconfirmed accounts after 24 h or 2 h before the start, once, with an e-mail', async () => {
  const dayOld = await unconfirmedPatient('dayold');
  const soon = await unconfirmedPatient('soon');
  const fresh = await unconfirmedPatient('fresh');
  const byStaff = await unconfirmedPatient('bystaff');
  const [confirmed] = await createPatients(stack, (await staffTokens(stack)).DOCTOR, 1, 'confirmed');
  const confirmedUser = { id: confirmed!.id, name: confirmed!.name, email: confirmed!.email };

  const days = (n: number) => minutesFromNow(n * 24 * 60);
  const released = [
    await bookedAt(service(), dayOld, days(3), { channel: 'patient', bookedAt: minutesFromNow(-25 * 60) }),
    // Booked 2 h 30 min ahead: the confirmation window was open for half an hour.
    await bookedAt(service(), soon, minutesFromNow(90), {
      channel: 'patient',
      bookedAt: minutesFromNow(-60),
    }),
  ];
  const kept = [
    await bookedAt(service(), fresh, days(3), { channel: 'patient', bookedAt: minutesFromNow(-60) }),
    await bookedAt(service(), byStaff, minutesFromNow(90), {
      channel: 'staff',
      bookedAt: minutesFromNow(-25 * 60),
    }),
    await bookedAt(service(), confirmedUser, minutesFromNow(90), {
      channel: 'patient',
      bookedAt: minutesFromNow(-25 * 60),
    }),
  ];
  const events = await listenForMessages<{ data: { id: string; endedBecause?: string; by?: unknown } }>(
    stack.amqpUrl,
    stack.exchange,
    'appointments.appointment.cancelled.v1',
  );

  const counts = await Promise.all([service().release.sweep(), service().release.sweep()]);
  expect(counts[0]! + counts[1]!).toBe(2);
  for (const appointment of released)
    expect((await service().repositories.appointments.findById(appointment.id))?.status).toBe('cancelled');
  for (const appointment of kept)
    expect((await service().repositories.appointments.findById(appointment.id))?.status).toBe('booked');

  for (const appointment of released) {
    const event = await events.waitFor((m) => m.body.data.id === appointment.id);
    expect(event.body.data.endedBecause).toBe('unconfirmedAccount');
    expect(event.body.data.by).toBeUndefined();
  }
  await new Promise((resolve) => setTimeout(resolve, 1000));
  expect(events.received).toHaveLength(2);
  await events.close();
  // The sign-up confirmation, the booking, and the release.
  const mails = await stack.mail.waitForMessagesTo(dayOld.email, 3);
  const notice = mails.find((mail) => mail.Subject.startsWith('Cita liberada'));
  expect(notice?.Text).toContain('porque su dirección de correo electrónico sigue sin confirmar');
});

it('keeps the booking of a patient who confirmed the e-mail (the confirmation reaches appointments as an event)', async () => {
  const patient = await unconfirmedPatient('confirms');
  const [mail] = await stack.mail.waitForMessagesTo(patient.email, 1);
  const token = /\/confirm-account\/([A-Za-z0-9_-]+)/.exec(mail!.Text)?.[1];
  expect((await stack.api.get(`/auth/confirmAccount/${token}`)).body).toEqual({
    message: 'Account confirmed',
  });
  for (let i = 0; (await service().models.Patient.findById(patient.id).lean())?.confirmed !== true; i++) {
    if (i > 100) throw new Error('the patients read model did not learn of the confirmation');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const booking = await bookedAt(service(), patient, minutesFromNow(90), {
    channel: 'patient',
    bookedAt: minutesFromNow(-25 * 60),
  });
  await service().release.sweep();
  expect((await service().repositories.appointments.findById(booking.id))?.status).toBe('booked');
});

it('never releases a booking made when its release moment had already passed (told "Cita confirmada", it stays), with the clock moved on', async () => {
  const late = await unconfirmedPatient('late');
  const early = await unconfirmedPatient('early');
  const now = Date.now();
  // 09:51 for 11:15 in the report: 84 minutes ahead, inside the 2-hour window from the start.
  const inside = await bookedAt(service(), late, new Date(now + 84 * 60_000), { channel: 'patient' });
  // 3 hours ahead: an hour to confirm, then released like any other.
  const outside = await bookedAt(service(), early, new Date(now + 180 * 60_000), { channel: 'patient' });
  let clock = new Date(now + 55_000);
  const { transitions, patients } = service().repositories;
  const release = new UnconfirmedRelease(
    transitions,
    patients,
    service().lifecycle,
    { holdMs: 24 * 3_600_000, beforeStartMs: 120 * 60_000 },
    () => clock,
  );

  await release.sweep();
  expect((await service().repositories.appointments.findById(inside.id))?.status).toBe('booked');
  expect((await service().repositories.appointments.findById(outside.id))?.status).toBe('booked');

  clock = new Date(now + 61 * 60_000);
  await release.sweep();
  expect((await service().repositories.appointments.findById(inside.id))?.status).toBe('booked');
  expect((await service().repositories.appointments.findById(outside.id))?.status).toBe('cancelled');
});
