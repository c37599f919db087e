import type { Request } from 'express';
import { callerOf } from '@crm/server-kit';
import type { AuditTrail, AuditWhat } from '@crm/server-kit/service';
import { disclosedAppointment } from '../domain/booking.messages';

/**
 * Records a staff or kiosk access to appointments in the access trail (services/audit/README.md,
 * "Vocabulary"); a patient reading or changing their own appointments is not recorded (the trail is
 * "who on the staff saw my data"; the service has already refused a patient anyone else's).
 * Awaited before answering: a read that could not be recorded is not served.
 */
export function recordAccess(trail: AuditTrail, req: Request, what: AuditWhat): Promise<void> {
  if (callerOf(req).rol === 'PACIENT') return Promise.resolve();
  return trail.recordRequest(req, what);
}

/** The appointments' patients, once each, for a list view's entry. */
export const patientsOf = (appointments: readonly { patientId: string }[]): string[] => [
  ...new Set(appointments.map((appointment) => appointment.patientId)),
];

/**
 * Runs a staff or kiosk booking for `patientId`. When it is refused with a 409 that names the
 * patient's other appointment (its id, date and status), that answer is a read of the appointment:
 * it is recorded in the trail before the error goes out, like any other read.
 */
export async function disclosingHeld<T>(
  trail: AuditTrail,
  req: Request,
  patientId: string,
  booking: () => Promise<T>,
): Promise<T> {
  try {
    return await booking();
  } catch (error) {
    const held = disclosedAppointment(error);
    if (held)
      await recordAccess(trail, req, {
        action: 'appointment.read',
        resource: 'appointment',
        resourceId: held.id,
        patientIds: [patientId],
      });
    throw error;
  }
}
