import { Router, type RequestHandler } from 'express';
import {
  appointmentIdParam,
  appointmentsQuery,
  type AppointmentsPage,
  type PatientAppointments,
  type PatientHistory,
} from '@crm/contracts';
import { callerOf, requireRole, validate, validated } from '@crm/server-kit';
import type { AuditTrail } from '@crm/server-kit/service';
import type { BookingService } from '../domain/booking.service';
import { patientsOf, recordAccess } from './access-trail';
import { callerWithToken } from './caller';
import { toAppointmentView, toPatientView } from './appointment.view';

/** The `/dates` calls that read (SPEC §7); staff reads are recorded in the access trail. */
export function datesReadRoutes(
  bookings: BookingService,
  requireUser: RequestHandler,
  trail: AuditTrail,
): Router {
  const router = Router();
  const staff = [requireUser, requireRole('DOCTOR', 'ADMIN')];
  const staffOrPatient = [requireUser, requireRole('DOCTOR', 'ADMIN', 'PACIENT')];

  /** Public: only instants, never who booked them. */
  router.get('/dates/booked', async (_req, res) => {
    res.json((await bookings.bookedSlots()).map((date) => date.toISOString()));
  });

  router.get('/dates/currentDate', requireUser, requireRole('PACIENT'), async (req, res) => {
    const date = await bookings.currentDate(callerOf(req));
    res.json({ date: date ? date.toISOString() : null });
  });

  router.get('/dates', ...staff, validate('query', appointmentsQuery), async (req, res) => {
    const query = validated(res, 'query', appointmentsQuery);
    const { items, total } = await bookings.list(query);
    await recordAccess(trail, req, {
      action: 'appointment.list',
      resource: 'appointment',
      patientIds: patientsOf(items),
    });
    const body: AppointmentsPage = {
      dates: items.map(toAppointmentView),
      total,
      page: query.page,
      totalPages: Math.max(1, Math.ceil(total / query.limit)),
      limit: query.limit,
    };
    res.json(body);
  });

  router.get('/dates/id/:id', ...staffOrPatient, validate('params', appointmentIdParam), async (req, res) => {
    const appointment = await bookings.findForCaller(
      callerOf(req),
      validated(res, 'params', appointmentIdParam).id,
    );
    await recordAccess(trail, req, {
      action: 'appointment.read',
      resource: 'appointment',
      resourceId: appointment.id,
      patientIds: [appointment.pacientId],
    });
    res.json(toAppointmentView(appointment));
  });

  router.get(
    '/dates/userid/:id',
    ...staffOrPatient,
    validate('params', appointmentIdParam),
    async (req, res) => {
      const { patient, appointments } = await bookings.activeOf(
        callerWithToken(req),
        validated(res, 'params', appointmentIdParam).id,
      );
      // A patient's appointments and their details: one entry naming them.
      await recordAccess(trail, req, {
        action: 'appointment.list',
        resource: 'appointment',
        resourceId: patient.id,
        patientIds: [patient.id],
      });
      const body: PatientAppointments = {
        user: toPatientView(patient),
        appointment: appointments.map(toAppointmentView),
      };
      res.json(body);
    },
  );

  router.get(
    '/dates/history/userid/:id',
    ...staffOrPatient,
    validate('params', appointmentIdParam),
    async (req, res) => {
      const { patient, appointments } = await bookings.historyOf(
        callerWithToken(req),
        validated(res, 'params', appointmentIdParam).id,
      );
      // A patient's appointments and their details: one entry naming them.
      await recordAccess(trail, req, {
        action: 'appointment.list',
        resource: 'appointment',
        resourceId: patient.id,
        patientIds: [patient.id],
      });
      const body: PatientHistory = {
        appointments: appointments.map(toAppointmentView),
        user: toPatientView(patient),
      };
      res.json(body);
    },
  );

  return router;
}
