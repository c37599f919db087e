import { listenForMessages } from '@crm/testing';
import { slotAllocator } from '../../../test-support/slots';
import type { Stack } from '../../../test-support/stack';
import type { AppointmentsService } from '../src/app';
import { appointmentsTestStack, type StaffTokens, type TestPatient } from './support/people';
import { MongoSlotHolds } from '../src/data/slot-hold.repository';

/**
 * Reschedule (docs/product/patient-area.md#rescheduling): one step, never two active appointments, never the
 * old one lost when the target slot is taken; the freed slot is free at once; same slot rules as booking.
 */
let stack: Stack;
let staff: StaffTokens;
let patients: TestPatient[];
const slots = slotAllocator(6);
const models = () => (stack.components.appointments!.handle as AppointmentsService).models;
let next = 0;
const patient = () => patients[next++]!;

appointmentsTestStack('moves', 40, (started) => ({ stack, staff, patients } = started));

const book = async (who: TestPatient, date: string) => {
  const response = await stack.api.post('/dates', { date }, who.token);
  expect(response.status).toBe(201);
  return response.body.id as string;
};
const moveOwn = (who: TestPatient, date: string) => stack.api.post('/dates/reschedule', { date }, who.token);
const statusOf = async (id: string) => (await stack.api.get(`/dates/id/${id}`, staff.DOCTOR)).body;
const booked = async () => (await stack.api.get<string[]>('/dates/booked')).body;
/** The patient's active appointments (booked or checked in), as the patient area reads them. */
const activeOf = async (who: TestPatient) =>
  (await stack.api.get(`/dates/userid/${who.id}`, staff.DOCTOR)).body.appointment as Array<{
    id: string;
    date: string;
  }>;

describe('POST /dates/reschedule (the patient) and /dates/reschedule/:id (staff)', () => {
  it('moves the patient’s appointment: the old one cancelled naming the new one, the old slot free at once', async () => {
    const who = patient();
    const [from, to] = [slots.next(), slots.next()];
    const oldId = await book(who, from);
    const events = await listenForMessages<{ data: Record<string, unknown> }>(
      stack.amqpUrl,
      stack.exchange,
      'appointments.appointment.*.v1',
    );
    const moved = await moveOwn(who, to);
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({
      date: to,
      status: 'booked',
      rescheduledFrom: { id: oldId, date: from },
    });
    expect(await statusOf(oldId)).toMatchObject({ status: 'cancelled', rescheduledTo: moved.body.id });
    expect(await activeOf(who)).toEqual([expect.objectContaining({ id: moved.body.id, date: to })]);
    const slotsNow = await booked();
    expect(slotsNow).toContain(to);
    expect(slotsNow).not.toContain(from);
    // The events: the old one cancelled (naming its successor), the new one rescheduled, one calendar entry.
    const rescheduled = await events.waitFor(
      (m) => m.routingKey === 'appointments.appointment.rescheduled.v1',
    );
    expect(rescheduled.body.data).toMatchObject({
      id: moved.body.id,
      previous: { id: oldId, date: from },
      calendar: { uid: oldId, sequence: 1 },
    });
    const cancelled = await events.waitFor((m) => m.routingKey === 'appointments.appointment.cancelled.v1');
    expect(cancelled.body.data).toMatchObject({ id: oldId, rescheduledTo: moved.body.id });
    await events.close();
    // The e-mails: the booking, then the change with a file that moves the same calendar entry.
    const mails = await stack.mail.waitForMessagesTo(who.email, 2);
    expect(mails.map((mail) => mail.Subject.split(':')[0]).sort()).toEqual([
      'Cita cambiada',
      'Cita confirmada',
    ]);
    const change = mails.find((mail) => mail.Subject.startsWith('Cita cambiada'))!;
    const file = change.Attachments.find((attachment) => attachment.FileName === 'cita.ics')!;
    const ics = (await stack.mail.attachment(change.ID, file.PartID)).replace(/\r\n /g, '');
    expect(ics).toContain(`UID:appointment-${oldId}@crm.events`);
    expect(ics).toContain('SEQUENCE:1');
    // No cancellation e-mail for the appointment the move replaced.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await stack.mail.messagesTo(who.email)).toHaveLength(2);

    // Moved again by a doctor: same calendar entry, one more in its sequence.
    const again = await stack.api.post(
      `/dates/reschedule/${moved.body.id}`,
      { date: slots.next() },
      staff.DOCTOR,
    );
    expect(again.status).toBe(200);
    const doc = await models().Appointment.findOne({ appointmentId: again.body.id, kind: 'active' }).lean();
    expect(doc?.calendar).toEqual({ uid: oldId, sequence: 2 });
  });

  it('keeps the old appointment when the target slot is taken (409), and refuses moves the rules refuse', async () => {
    const [who, other] = [patient(), patient()];
    const [from, taken] = [slots.next(), slots.next()];
    const oldId = await book(who, from);
    await book(other, taken);
    const refused = await moveOwn(who, taken);
    expect(refused.status).toBe(409);
    expect(refused.body.errors).toEqual([{ field: 'date', message: 'Ese horario ya no está disponible' }]);
    expect(await statusOf(oldId)).toMatchObject({ status: 'booked', date: from });
    expect(await models().Appointment.countDocuments({ kind: 'hold' })).toBe(0);

    expect((await moveOwn(who, from)).body.errors[0]).toEqual({
      field: 'date',
      message: 'La cita ya es a esa hora',
    });
    const closed = await moveOwn(who, '2031-06-08T10:00:00.000Z'); // a Sunday
    expect(closed.status).toBe(400);
    expect(closed.body.errors[0].field).toBe('date');
    const malformed = await moveOwn(who, 'mañana');
    expect(malformed.status).toBe(400);
    // Nothing to move / someone else's: 404; checked in: 409.
    expect((await moveOwn(patient(), slots.next())).status).toBe(404);
    expect(
      (await stack.api.post(`/dates/reschedule/${'a'.repeat(24)}`, { date: slots.next() }, staff.ADMIN))
        .status,
    ).toBe(404);
    expect(
      (await stack.api.post(`/dates/reschedule/${oldId}`, { date: slots.next() }, who.token)).status,
    ).toBe(403);
  });

  it('lets exactly one of a reschedule and a booking racing for the same slot win; the patient keeps one appointment', async () => {
    for (let round = 0; round < 5; round++) {
      const [mover, booker] = [patient(), patient()];
      const [from, target] = [slots.next(), slots.next()];
      const oldId = await book(mover, from);
      const [move, booking] = await Promise.all([
        moveOwn(mover, target),
        stack.api.post('/dates', { date: target }, booker.token),
      ]);
      // Exactly one of them got the slot; the other was told it is taken.
      expect([move.status === 200, booking.status === 201].filter(Boolean)).toHaveLength(1);
      expect([move.status, booking.status]).toContain(409);
      expect(await models().Appointment.countDocuments({ kind: 'active', date: new Date(target) })).toBe(1);
      const active = await activeOf(mover);
      expect(active).toHaveLength(1);
      expect(active[0]!.id).toBe(move.status === 200 ? move.body.id : oldId);
    }
  });

  it('lets one of 20 parallel reschedules of one appointment through: one active appointment, one slot, no holds left', async () => {
    const who = patient();
    const oldId = await book(who, slots.next());
    const targets = Array.from({ length: 20 }, () => slots.next());
    const answers = await Promise.all(
      targets.map((date) => stack.api.post(`/dates/reschedule/${oldId}`, { date }, staff.ADMIN)),
    );
    const moved = answers.filter((answer) => answer.status === 200);
    expect(moved).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 409)).toHaveLength(19);
    expect(await activeOf(who)).toEqual([expect.objectContaining({ id: moved[0]!.body.id })]);
    expect(await statusOf(oldId)).toMatchObject({ status: 'cancelled', rescheduledTo: moved[0]!.body.id });
    const held = (await booked()).filter((date) => targets.includes(date));
    expect(held).toEqual([moved[0]!.body.date]);
    expect(await models().Appointment.countDocuments({ kind: 'hold' })).toBe(0);
  });

  it('20 parallel "move my appointment" calls leave the patient one active appointment, holding one slot', async () => {
    const who = patient();
    await book(who, slots.next());
    const targets = Array.from({ length: 20 }, () => slots.next());
    const answers = await Promise.all(targets.map((date) => moveOwn(who, date)));
    // Each call moves whatever the patient holds when it starts: some may follow one another.
    const others = answers.filter((answer) => answer.status !== 200 && answer.status !== 409);
    expect(others.map((answer) => [answer.status, answer.body])).toEqual([]);
    const active = await activeOf(who);
    expect(active).toHaveLength(1);
    expect((await booked()).filter((date) => targets.includes(date))).toEqual([active[0]!.date]);
    expect(await models().Appointment.countDocuments({ kind: 'hold' })).toBe(0);
  });

  it('housekeeping finishes a move a crash interrupted after the old appointment ended, and drops an abandoned hold', async () => {
    const service = stack.components.appointments!.handle as AppointmentsService;
    const holds = new MongoSlotHolds(service.models, () => undefined);
    const crashedAt = new Date(Date.now() - 5 * 60_000);
    // Abandoned: the target slot held, the old appointment never ended.
    const [stayer, mover] = [patient(), patient()];
    const stayingId = await book(stayer, slots.next());
    const staying = (await service.repositories.appointments.findById(stayingId))!;
    const abandoned = service.repositories.appointments.newId();
    const abandonedSlot = slots.next();
    expect(await holds.hold(staying, abandoned, new Date(abandonedSlot), crashedAt, false)).toBe('held');
    // Interrupted: the old appointment ended naming the hold, the promotion never happened.
    const movingId = await book(mover, slots.next());
    const moving = (await service.repositories.appointments.findById(movingId))!;
    const interrupted = service.repositories.appointments.newId();
    expect(await holds.hold(moving, interrupted, new Date(slots.next()), crashedAt, false)).toBe('held');
    const ended = await service.lifecycle.attempt(moving, {
      to: 'cancelled',
      initiator: 'patient',
      by: { id: mover.id, rol: 'PACIENT' },
      rescheduledTo: interrupted,
    });
    expect('done' in ended).toBe(true);
    expect(await activeOf(mover)).toEqual([]);

    expect(await service.moves.finishStaleHolds()).toBe(2);
    expect(await activeOf(mover)).toEqual([expect.objectContaining({ id: interrupted })]);
    expect(await activeOf(stayer)).toEqual([expect.objectContaining({ id: stayingId })]);
    expect(await booked()).not.toContain(abandonedSlot);
    expect(await models().Appointment.countDocuments({ kind: 'hold' })).toBe(0);
  });
});
