import { slotAllocator } from '../../../test-support/slots';
import type { Stack } from '../../../test-support/stack';
import type { AppointmentsService } from '../src/app';
import { MongoSlotHolds } from '../src/data/slot-hold.repository';
import { RescheduleService } from '../src/domain/reschedule.service';
import { bookedAt, ghostPatient, minutesFromNow } from './support/fixtures';
import { appointmentsTestStack, type StaffTokens, type TestPatient } from './support/people';

/**
 * The cancellation policy: a cancellation is stored with whether it is refunded — made more
 * than the centre profile's refund window (24 h by default) before the start — answered, and kept.
 */
let stack: Stack;
let staff: StaffTokens;
let patients: TestPatient[];
const slots = slotAllocator(5);
const service = () => stack.components.appointments!.handle as AppointmentsService;

// With the config service: the window is the profile's (the seed's 24 hours).
appointmentsTestStack('refunds', 4, (started) => ({ stack, staff, patients } = started), {
  withConfig: true,
});

describe('cancellations and their refund', () => {
  it('refunds a patient who cancels days ahead, and says so in the answer, the appointment and the e-mail', async () => {
    const [patient] = patients;
    const date = slots.next();
    const booked = await stack.api.post('/dates', { date }, patient!.token);
    expect(booked.status).toBe(201);
    const cancelled = await stack.api.delete(`/dates/${encodeURIComponent(date)}`, patient!.token);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', refundable: true });
    expect((await stack.api.get(`/dates/id/${booked.body.id}`, staff.DOCTOR)).body).toMatchObject({
      status: 'cancelled',
      refundable: true,
    });
    const mails = await stack.mail.waitForMessagesTo(patient!.email, 2);
    const notice = mails.find((mail) => mail.Subject.startsWith('Cita cancelada'))!;
    expect(notice.Text).toContain('con más de 24 horas de antelación, le devolveremos el importe pagado');
  });

  it('does not refund a cancellation less than 24 hours before the start', async () => {
    const soon = await bookedAt(service(), ghostPatient('soon'), minutesFromNow(180));
    const cancelled = await stack.api.delete(`/dates/cancel/${soon.id}`, staff.ADMIN);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', refundable: false });
  });

  it('states nothing about refunds for a move (the old appointment is not a cancellation the patient pays for)', async () => {
    const [, patient] = patients;
    const first = await stack.api.post('/dates', { date: slots.next() }, patient!.token);
    const moved = await stack.api.post('/dates/reschedule', { date: slots.next() }, patient!.token);
    expect(moved.status).toBe(200);
    const old = (await stack.api.get(`/dates/id/${first.body.id}`, staff.DOCTOR)).body;
    expect(old.status).toBe('cancelled');
    expect(old).not.toHaveProperty('refundable');
  });

  it('keeps the refund status of an appointment moved inside the window: cancelling the moved one is not refunded (answer, current date, e-mail)', async () => {
    const [, , patient] = patients;
    const first = await stack.api.post('/dates', { date: slots.next() }, patient!.token);
    expect(first.status).toBe(201);
    // The patient's move, made by a clock 23 h 43 min before the original start.
    const clock = new Date(Date.parse(first.body.date) - (23 * 60 + 43) * 60_000);
    const moves = new RescheduleService(
      service().repositories.appointments,
      new MongoSlotHolds(service().models, () => service().relay.kick()),
      service().lifecycle,
      () => clock,
    );
    const target = slots.next();
    const moved = await moves.moveOwn({ id: patient!.id, rol: 'PACIENT' }, new Date(target));
    expect(moved.refundForfeited).toBe(true);
    expect((await stack.api.get('/dates/currentDate', patient!.token)).body).toEqual({
      id: expect.any(String),
      date: target,
      status: 'booked',
      refundForfeited: true,
      bookingCode: expect.any(String),
    });

    // Cancelled days before the new start, by the real clock: still not refunded.
    const cancelled = await stack.api.delete(`/dates/${encodeURIComponent(target)}`, patient!.token);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', refundable: false });
    const mails = await stack.mail.waitForMessagesTo(patient!.email, 3);
    const notice = mails.find((mail) => mail.Subject.startsWith('Cita cancelada'))!;
    expect(notice.Text).toContain('se cambió cuando faltaban menos de 24 horas');
    expect(notice.Text).toContain('el importe pagado no se devuelve');
    expect(notice.Text).not.toContain('le devolveremos');
  });

  it('a move made well before the window keeps the refund: the moved appointment cancelled days ahead is refunded', async () => {
    const [, , , patient] = patients;
    expect((await stack.api.post('/dates', { date: slots.next() }, patient!.token)).status).toBe(201);
    const target = slots.next();
    const moved = await stack.api.post('/dates/reschedule', { date: target }, patient!.token);
    expect(moved.status).toBe(200);
    expect(moved.body).not.toHaveProperty('refundForfeited');
    const cancelled = await stack.api.delete(`/dates/${encodeURIComponent(target)}`, patient!.token);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', refundable: true });
  });
});
