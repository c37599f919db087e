import {
  appointmentAttended,
  appointmentBooked,
  appointmentCancelled,
  appointmentCheckedIn,
  appointmentDeleted,
  appointmentNoShow,
  appointmentRescheduled,
  configCentreUpdated,
  type EventData,
} from '@crm/contracts';
import { on } from '@crm/event-bus';
import type { KnownAppointment } from '../domain/payment';
import type { AppointmentStore } from '../domain/payment-store';
import type { PaymentsService } from '../domain/payments.service';

type Change = Pick<EventData<typeof appointmentBooked>, 'id' | 'pacientId' | 'user' | 'date'>;

const known = (data: Change, status: KnownAppointment['status']): KnownAppointment => ({
  id: data.id,
  patientId: data.pacientId,
  patientName: data.user.name,
  patientEmail: data.user.email,
  date: new Date(data.date),
  status,
});

/**
 * The appointments' events → the read model (who, when, which state); a patient's cancellation
 * inside the refund window → its online payments are refunded. The centre profile's → re-read.
 */
export function appointmentEvents(
  store: AppointmentStore,
  payments: PaymentsService,
  onCentreUpdated: () => void,
) {
  return [
    on(appointmentBooked, (e) => store.record(known(e.data, 'booked'))),
    // The new appointment carries the moved one's payments (looked up through `previousId`).
    on(appointmentRescheduled, (e) =>
      store.record({ ...known(e.data, 'booked'), previousId: e.data.previous.id }),
    ),
    on(appointmentCheckedIn, (e) => store.record(known(e.data, 'checkedIn'))),
    on(appointmentAttended, (e) => store.record(known(e.data, 'attended'))),
    on(appointmentNoShow, (e) => store.record(known(e.data, 'noShow'))),
    on(appointmentDeleted, (e) => store.record(known(e.data, 'deleted'))),
    on(appointmentCancelled, async (e) => {
      await store.record(known(e.data, 'cancelled'));
      // A move is not a cancellation for the money: the new appointment carries the payment.
      if (e.data.rescheduledTo) return;
      if (e.data.endedBecause === 'unpaid') return payments.holdReleased(e.data.id);
      await payments.appointmentCancelled(
        e.data.id,
        e.data.refundable === true,
        e.data.by?.rol === 'PACIENT',
      );
    }),
    on(configCentreUpdated, () => onCentreUpdated()),
  ] as const;
}
