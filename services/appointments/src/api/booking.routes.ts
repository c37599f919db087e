import { Router, type Request, type RequestHandler } from 'express';
import {
  appointmentDateParam,
  appointmentIdParam,
  bookForPatientBody,
  bookForSelfBody,
  bookWalkInBody,
  type AppointmentStatusChange,
  type BookingResponse,
} from '@crm/contracts';
import { callerOf, requireRole, validate, validated } from '@crm/server-kit';
import type { AuditTrail } from '@crm/server-kit/service';
import type { Appointment } from '../domain/appointment';
import type { BookingService } from '../domain/booking.service';
import { recordAccess } from './access-trail';
import { callerWithToken } from './caller';
import { toAppointmentView } from './appointment.view';

const statusChange = (appointment: Appointment): AppointmentStatusChange => ({
  message: appointment.status === 'deleted' ? 'Cita eliminada' : 'Cita cancelada',
  id: appointment.id,
  status: appointment.status,
});

/**
 * The `/dates` calls that book or end appointments (SPEC §7). Bookings, cancellations and deletions
 * by the staff or the kiosk are recorded in the access trail (a patient's own are not).
 */
export function bookingRoutes(
  bookings: BookingService,
  requireUser: RequestHandler,
  trail: AuditTrail,
): Router {
  const router = Router();
  /** Records `action` on one appointment and gives it back. */
  const recorded = async (req: Request, action: string, appointment: Appointment) => {
    await recordAccess(trail, req, {
      action,
      resource: 'appointment',
      resourceId: appointment.id,
      patientIds: [appointment.pacientId],
    });
    return appointment;
  };

  router.post(
    '/dates',
    requireUser,
    requireRole('PACIENT'),
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
      };
      res.status(201).json(body);
    },
  );

  router.post(
    '/dates/admin',
    requireUser,
    requireRole('DOCTOR', 'ADMIN'),
    validate('body', bookForPatientBody),
    async (req, res) => {
      const { date, pacientId } = validated(res, 'body', bookForPatientBody);
      res
        .status(201)
        .json(
          toAppointmentView(
            await recorded(
              req,
              'appointment.book',
              await bookings.bookForPatient(callerWithToken(req), pacientId, date),
            ),
          ),
        );
    },
  );

  router.post(
    '/dates/service',
    requireUser,
    requireRole('SERVICE_ACCOUNT'),
    validate('body', bookWalkInBody),
    async (req, res) => {
      const { date, pacientId } = validated(res, 'body', bookWalkInBody);
      res
        .status(201)
        .json(
          toAppointmentView(
            await recorded(
              req,
              'appointment.book',
              await bookings.bookWalkIn(callerWithToken(req), pacientId, date),
            ),
          ),
        );
    },
  );

  router.delete(
    '/dates/delete/:id',
    requireUser,
    requireRole('ADMIN'),
    validate('params', appointmentIdParam),
    async (req, res) => {
      res.json(
        statusChange(
          await recorded(
            req,
            'appointment.delete',
            await bookings.deleteById(callerOf(req), validated(res, 'params', appointmentIdParam).id),
          ),
        ),
      );
    },
  );

  router.delete(
    '/dates/cancel/:id',
    requireUser,
    requireRole('DOCTOR', 'ADMIN'),
    validate('params', appointmentIdParam),
    async (req, res) => {
      res.json(
        statusChange(
          await recorded(
            req,
            'appointment.cancel',
            await bookings.cancelById(callerOf(req), validated(res, 'params', appointmentIdParam).id),
          ),
        ),
      );
    },
  );

  router.delete(
    '/dates/:date',
    requireUser,
    requireRole('PACIENT'),
    validate('params', appointmentDateParam),
    async (req, res) => {
      res.json(
        statusChange(
          await bookings.cancelOwn(callerOf(req), validated(res, 'params', appointmentDateParam).date),
        ),
      );
    },
  );

  return router;
}
