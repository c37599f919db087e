import { Router, type Request, type RequestHandler, type Response } from 'express';
import {
  agendaQuery,
  appointmentIdParam,
  CENTRE_TIME_ZONE,
  pacientBody,
  type AgendaResponse,
} from '@crm/contracts';
import { callerOf, requireRole, validate, validated } from '@crm/server-kit';
import type { AuditTrail } from '@crm/server-kit/service';
import type { Appointment } from '../domain/appointment';
import type { BookingService } from '../domain/booking.service';
import type { LifecycleService } from '../domain/lifecycle.service';
import { patientsOf, recordAccess } from './access-trail';
import { callerWithToken } from './caller';
import { toAgendaEntry, toAppointmentView } from './appointment.view';

/**
 * The `/dates` calls of the day at the centre: check-in, attended, no-show, the agenda, "be seen
 * now". Every one is a staff or kiosk access, recorded in the access trail.
 */
export function lifecycleRoutes(
  lifecycle: LifecycleService,
  bookings: BookingService,
  requireUser: RequestHandler,
  trail: AuditTrail,
): Router {
  const router = Router();
  const staff = [requireUser, requireRole('DOCTOR', 'ADMIN')];
  const byId = validate('params', appointmentIdParam);
  /** Records `action` on one appointment, then answers it. */
  const recordAndAnswer = async (
    req: Request,
    res: Response,
    action: string,
    appointment: Appointment,
    status = 200,
  ) => {
    await recordAccess(trail, req, {
      action,
      resource: 'appointment',
      resourceId: appointment.id,
      patientIds: [appointment.pacientId],
    });
    res.status(status).json(toAppointmentView(appointment));
  };

  router.get('/dates/agenda', ...staff, validate('query', agendaQuery), async (req, res) => {
    const { day, appointments } = await lifecycle.agenda(validated(res, 'query', agendaQuery).date);
    await recordAccess(trail, req, {
      action: 'appointment.list',
      resource: 'appointment',
      resourceId: day,
      patientIds: patientsOf(appointments),
    });
    const body: AgendaResponse = {
      date: day,
      timeZone: CENTRE_TIME_ZONE,
      appointments: appointments.map(toAgendaEntry),
    };
    res.json(body);
  });

  router.post(
    '/dates/checkin',
    requireUser,
    requireRole('SERVICE_ACCOUNT', 'DOCTOR', 'ADMIN'),
    validate('body', pacientBody),
    async (req, res) => {
      const { pacientId } = validated(res, 'body', pacientBody);
      await recordAndAnswer(
        req,
        res,
        'appointment.check-in',
        await lifecycle.checkInPatient(callerOf(req), pacientId),
      );
    },
  );

  router.post('/dates/checkin/:id', ...staff, byId, async (req, res) => {
    const { id } = validated(res, 'params', appointmentIdParam);
    await recordAndAnswer(req, res, 'appointment.check-in', await lifecycle.checkIn(callerOf(req), id));
  });

  router.post('/dates/attended/:id', ...staff, byId, async (req, res) => {
    const { id } = validated(res, 'params', appointmentIdParam);
    await recordAndAnswer(req, res, 'appointment.attend', await lifecycle.end(callerOf(req), id, 'attended'));
  });

  router.post('/dates/noshow/:id', ...staff, byId, async (req, res) => {
    const { id } = validated(res, 'params', appointmentIdParam);
    await recordAndAnswer(req, res, 'appointment.no-show', await lifecycle.end(callerOf(req), id, 'noShow'));
  });

  router.post(
    '/dates/service/now',
    requireUser,
    requireRole('SERVICE_ACCOUNT'),
    validate('body', pacientBody),
    async (req, res) => {
      const { pacientId } = validated(res, 'body', pacientBody);
      // A walk-in now (replacing a later appointment, if any): a booking by the kiosk.
      await recordAndAnswer(
        req,
        res,
        'appointment.book',
        await bookings.seeNow(callerWithToken(req), pacientId),
        201,
      );
    },
  );

  return router;
}
