import type { Request } from 'express';
import {
  appointmentDateParam,
  appointmentIdParam,
  bookForPatientBody,
  bookForSelfBody,
  bookWalkInBody,
  bookingCodeCheckBody,
  rescheduleBody,
  type AppointmentStatusChange,
  type BookingResponse,
} from '@crm/contracts';
import { callerOf, validate, validated, type RouteHandlers } from '@crm/server-kit';
import type { AuditTrail } from '@crm/server-kit/service';
import type { Appointment } from '../domain/appointment';
import type { BookingService } from '../domain/booking.service';
import type { KioskProof } from '../domain/kiosk-proof';
import type { RescheduleService } from '../domain/reschedule.service';
import { disclosingHeld, recordAccess } from './access-trail';
import { callerWithToken } from './caller';
import { toAppointmentView } from './appointment.view';

const statusChange = (appointment: Appointment): AppointmentStatusChange & { refundable?: boolean } => ({
  message: appointment.status === 'deleted' ? 'Cita eliminada' : 'Cita cancelada',
  id: appointment.id,
  status: appointment.status,
  ...(appointment.refundable !== undefined ? { refundable: appointment.refundable } : {}),
});

/**
 * The `/dates` calls that book, move or end appointments (roles from the route table).
 * Bookings, moves, cancellations and deletions by the staff or the kiosk are recorded in the access
 * trail (a patient's own are not).
 */
export function bookingHandlers(
  bookings: BookingService,
  moves: RescheduleService,
  proof: KioskProof,
  trail: AuditTrail,
) {
  /** Records `action` on one appointment and gives it back. */
  const recorded = async (req: Request, action: string, appointment: Appointment) => {
    await recordAccess(trail, req, {
      action,
      resource: 'appointment',
      resourceId: appointment.id,
      patientIds: [appointment.patientId],
    });
    return appointment;
  };

  return {
    'POST /dates': [
      validate('body', bookForSelfBody),
      async (req, res) => {
        const appointment = await bookings.bookForSelf(
          callerWithToken(req),
          validated(res, 'body', bookForSelfBody).date,
        );
        const body: BookingResponse = {
          id: appointment.id,
          date: appointment.date.toISOString(),
          name: appointment.user.name,
          bookingCode: appointment.bookingCode!,
          ...(appointment.paymentDueBy ? { paymentDueBy: appointment.paymentDueBy.toISOString() } : {}),
        };
        res.status(201).json(body);
      },
    ],
    'POST /dates/admin': [
      validate('body', bookForPatientBody),
      async (req, res) => {
        const { date, pacientId: patientId } = validated(res, 'body', bookForPatientBody);
        const booked = await disclosingHeld(trail, req, patientId, () =>
          bookings.bookForPatient(callerWithToken(req), patientId, date),
        );
        res.status(201).json(toAppointmentView(await recorded(req, 'appointment.book', booked)));
      },
    ],
    'POST /dates/service': [
      validate('body', bookWalkInBody),
      async (req, res) => {
        const { date, pacientId: patientId, code } = validated(res, 'body', bookWalkInBody);
        const caller = callerWithToken(req);
        // Nothing is read or changed for a person who has not shown the patient's code.
        await proof.require(caller, patientId, code);
        const booked = await disclosingHeld(trail, req, patientId, () =>
          bookings.bookWalkIn(caller, patientId, date),
        );
        res.status(201).json(toAppointmentView(await recorded(req, 'appointment.book', booked)));
      },
    ],
    'POST /dates/code/verify': [
      validate('body', bookingCodeCheckBody),
      async (req, res) => {
        const { pacientId: patientId, code } = validated(res, 'body', bookingCodeCheckBody);
        await proof.verifyBookingCode(patientId, code);
        res.json({ pacientId: patientId });
      },
    ],
    'POST /dates/reschedule': [
      validate('body', rescheduleBody),
      async (req, res) => {
        const moved = await moves.moveOwn(callerOf(req), validated(res, 'body', rescheduleBody).date);
        res.json(toAppointmentView(moved));
      },
    ],
    'POST /dates/reschedule/:id': [
      validate('params', appointmentIdParam),
      validate('body', rescheduleBody),
      async (req, res) => {
        const { id } = validated(res, 'params', appointmentIdParam);
        const moved = await moves.moveById(callerOf(req), id, validated(res, 'body', rescheduleBody).date);
        res.json(toAppointmentView(await recorded(req, 'appointment.reschedule', moved)));
      },
    ],
    'DELETE /dates/delete/:id': [
      validate('params', appointmentIdParam),
      async (req, res) => {
        const deleted = await bookings.deleteById(
          callerOf(req),
          validated(res, 'params', appointmentIdParam).id,
        );
        res.json(statusChange(await recorded(req, 'appointment.delete', deleted)));
      },
    ],
    'DELETE /dates/cancel/:id': [
      validate('params', appointmentIdParam),
      async (req, res) => {
        const cancelled = await bookings.cancelById(
          callerOf(req),
          validated(res, 'params', appointmentIdParam).id,
        );
        res.json(statusChange(await recorded(req, 'appointment.cancel', cancelled)));
      },
    ],
    'DELETE /dates/:date': [
      validate('params', appointmentDateParam),
      async (req, res) => {
        res.json(
          statusChange(
            await bookings.cancelOwn(callerOf(req), validated(res, 'params', appointmentDateParam).date),
          ),
        );
      },
    ],
  } satisfies Partial<RouteHandlers<'appointments'>>;
}
