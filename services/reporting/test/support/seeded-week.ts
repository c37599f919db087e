import {
  appointmentAttended,
  appointmentBooked,
  appointmentCancelled,
  appointmentCheckedIn,
  appointmentDeleted,
  appointmentNoShow,
  paymentSucceeded,
  recordCreated,
  recordUpdated,
  refundIssued,
  type BookingChannel,
  type EventContract,
  type EventEnvelope,
} from '@crm/contracts';
import { createEnvelope } from '@crm/event-bus';
import { uniqueId } from '@crm/testing';

const admin = { id: uniqueId(), rol: 'ADMIN' as const };

/** One appointment's events, built with the contracts' envelopes. */
export function appointment(date: string, channel: BookingChannel, bookedAt = '2024-05-20T10:00:00Z') {
  const id = uniqueId();
  const pacientId = uniqueId();
  const data = {
    id,
    date,
    pacientId,
    user: { id: pacientId, name: 'Paciente de prueba', email: `p${id}@example.test` },
    channel,
    by: channel === 'kiosk' ? { id: uniqueId(), rol: 'SERVICE_ACCOUNT' as const } : admin,
  };
  const at = (iso: string) => ({ occurredAt: new Date(iso) });
  const envelope = <C extends EventContract>(contract: C, extra: object, when: string) =>
    createEnvelope(contract, { ...data, ...extra } as never, `seed-${id}`, at(when)) as EventEnvelope;
  return {
    id,
    booked: () => envelope(appointmentBooked, {}, bookedAt),
    cancelled: (when: string, extra: object = {}) => envelope(appointmentCancelled, extra, when),
    deleted: (when: string) => envelope(appointmentDeleted, {}, when),
    checkedIn: (when: string) => envelope(appointmentCheckedIn, { checkedInAt: when }, when),
    attended: (when: string) => envelope(appointmentAttended, { endedAt: when }, when),
    noShow: (when: string) => envelope(appointmentNoShow, { endedAt: when, by: undefined }, when),
    record: (
      kind: 'created' | 'updated',
      revision: number,
      gross: number,
      certificateType: string | undefined,
      when: string,
      withDate = true,
    ) =>
      createEnvelope(
        kind === 'created' ? recordCreated : recordUpdated,
        {
          id,
          userId: pacientId,
          dateId: id,
          doctorId: admin.id,
          configVersion: 1,
          billing: {
            gross,
            currency: 'EUR',
            ...(certificateType ? { certificateType } : {}),
            revision,
            ...(withDate ? { appointmentDate: date } : {}),
          },
        },
        `seed-${id}`,
        at(when),
      ) as EventEnvelope,
  };
}

export const DRIVING = 'Permiso de conducir';
export const WEAPONS = 'Licencia de armas';

/**
 * A week at the centre, 3–9 June 2024 (the Canaries at UTC+1: 09:00 there is 08:00Z), as events:
 *
 * Monday 3: four bookings — 09:00 web (attended; record 50 € then corrected to 54 €, driving
 * licence), 09:15 staff (no-show), 10:00 web (cancelled three days before: refunded), a kiosk walk-in
 * at 11:02 (off the grid; checked in, attended, record 40 €, weapons, whose event has no date).
 * Tuesday 4: 17:00 staff (cancelled 2 hours before: not refunded), 17:15 web (deleted), 18:00 web
 * (attended; record 30 €, weapons) and one at 00:30 local (23:30Z on Monday: Tuesday's).
 */
export function seededWeek() {
  const a1 = appointment('2024-06-03T08:00:00.000Z', 'patient');
  const a2 = appointment('2024-06-03T08:15:00.000Z', 'staff');
  const a3 = appointment('2024-06-03T09:00:00.000Z', 'patient');
  const a4 = appointment('2024-06-03T10:02:00.000Z', 'kiosk', '2024-06-03T10:00:00Z');
  const b1 = appointment('2024-06-04T16:00:00.000Z', 'staff');
  const b2 = appointment('2024-06-04T16:15:00.000Z', 'patient');
  const b3 = appointment('2024-06-04T17:00:00.000Z', 'patient');
  const b4 = appointment('2024-06-03T23:30:00.000Z', 'patient');
  const events: EventEnvelope[] = [
    a1.booked(),
    a1.attended('2024-06-03T08:20:00Z'),
    a1.record('created', 1, 50, DRIVING, '2024-06-03T08:20:00Z'),
    a1.record('updated', 2, 54, DRIVING, '2024-06-03T08:40:00Z'),
    a2.booked(),
    a2.noShow('2024-06-03T09:00:00Z'),
    a3.booked(),
    a3.cancelled('2024-05-31T09:00:00Z'),
    a4.booked(),
    a4.checkedIn('2024-06-03T10:01:00Z'),
    a4.attended('2024-06-03T10:30:00Z'),
    a4.record('created', 1, 40, WEAPONS, '2024-06-03T10:30:00Z', false),
    b1.booked(),
    b1.cancelled('2024-06-04T14:00:00Z'),
    b2.booked(),
    b2.deleted('2024-06-01T12:00:00Z'),
    b3.booked(),
    b3.attended('2024-06-04T17:20:00Z'),
    b3.record('created', 1, 30, WEAPONS, '2024-06-04T17:20:00Z'),
    b4.booked(),
  ];
  return { from: '2024-06-03', to: '2024-06-09', events };
}

/**
 * 10–16 June 2024, amounts in cents: Monday 10 09:00 web (attended, record 1,25 €, driving licence),
 * Tuesday 11 09:00 web (attended, record 0,50 €, weapons). So small that the charts' value axes need
 * decimals too.
 */
export function centsWeek() {
  const c1 = appointment('2024-06-10T08:00:00.000Z', 'patient');
  const c2 = appointment('2024-06-11T08:00:00.000Z', 'patient');
  const events: EventEnvelope[] = [
    c1.booked(),
    c1.attended('2024-06-10T08:20:00Z'),
    c1.record('created', 1, 1.25, DRIVING, '2024-06-10T08:20:00Z'),
    c2.booked(),
    c2.attended('2024-06-11T08:20:00Z'),
    c2.record('created', 1, 0.5, WEAPONS, '2024-06-11T08:20:00Z'),
  ];
  return { from: '2024-06-10', to: '2024-06-16', events };
}

/** A payment's events as the payments service publishes them. */
export function payment(
  method: 'card' | 'bizum' | 'cash' | 'transfer',
  amountCents: number,
  paidAt: string,
  /** The appointment paid for (by default one the read model never heard of). */
  appointmentId = uniqueId(),
) {
  const facts = {
    paymentId: uniqueId(),
    appointmentId,
    pacientId: uniqueId(),
    provider: method === 'cash' || method === 'transfer' ? ('desk' as const) : ('redsys' as const),
    method,
    amountCents,
    currency: 'EUR',
  };
  const at = (iso: string) => ({ occurredAt: new Date(iso) });
  return {
    succeeded: () =>
      createEnvelope(
        paymentSucceeded,
        { ...facts, paidAt },
        `pay-${facts.paymentId}`,
        at(paidAt),
      ) as EventEnvelope,
    refunded: (refundedAt: string) =>
      createEnvelope(
        refundIssued,
        { ...facts, refundedAt, refundCents: amountCents, cause: 'manual' },
        `pay-${facts.paymentId}`,
        at(refundedAt),
      ) as EventEnvelope,
  };
}
