import { userErased } from '@crm/contracts';
import { on } from '@crm/event-bus';
import type { Logger } from '@crm/server-kit';
import type { AppointmentRepository } from '../domain/appointment';
import type { LifecycleService } from '../domain/lifecycle.service';
import type { WaitlistService } from '../domain/waitlist.service';
import type { PatientErasure } from '../data/patient-erasure';

/**
 * A patient erased their account (`auth.user.erased.v1`): their booked appointment is cancelled
 * (the slot goes back to others, and to the waiting list), they leave every waiting list, and the
 * appointments they had keep no name or contact data. Redelivery finds nothing left to do.
 */
export function patientErasureHandlers(
  appointments: AppointmentRepository,
  lifecycle: LifecycleService,
  waitlist: WaitlistService,
  erasure: PatientErasure,
  logger: Logger,
) {
  return [
    on(userErased, async (event) => {
      const { userId } = event.data;
      const held = await appointments.findHeldBy(userId);
      if (held?.status === 'booked') {
        const outcome = await lifecycle.attempt(held, {
          to: 'cancelled',
          initiator: 'patient',
          by: { id: userId, rol: 'PACIENT' },
        });
        if (!('done' in outcome))
          logger.warn({ appointmentId: held.id }, 'erased patient’s appointment not cancelled');
      }
      await waitlist.forget(userId);
      await erasure.pseudonymise(userId);
    }),
  ] as const;
}
