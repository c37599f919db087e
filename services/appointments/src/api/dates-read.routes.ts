import type { Request } from 'express';
import {
  appointmentIdParam,
  appointmentsQuery,
  daySlotsQuery,
  type AppointmentsPage,
  type CurrentDateView,
  type PatientAppointments,
  type PatientHistory,
  paged,
} from '@crm/contracts';
import { callerOf, validate, validated, type RouteHandlers } from '@crm/server-kit';
import type { AuditTrail } from '@crm/server-kit/service';
import type { BookingService } from '../domain/booking.service';
import { patientsOf, recordAccess } from './access-trail';
import { callerWithToken } from './caller';
import { toAppointmentView, toPatientView } from './appointment.view';

/**
 * The `/dates` calls that read (roles from the route table); staff reads are recorded in the access trail.
 */
export function datesReadHandlers(bookings: BookingService, trail: AuditTrail) {
  /** A patient's appointments and their details: one entry naming them. */
  const recordPatientList = (req: Request, patientId: string) =>
    recordAccess(trail, req, {
      action: 'appointment.list',
      resource: 'appointment',
      resourceId: patientId,
      patientIds: [patientId],
    });

  return {
    /** Public: only instants, never who booked them. */
    'GET /dates/booked': async (_req, res) => {
      res.json((await bookings.bookedSlots()).map((date) => date.toISOString()));
    },
    /** Public: one day as the calendar offers it (closed and why, or its free slots). */
    'GET /dates/slots': [
      validate('query', daySlotsQuery),
      async (req, res) => {
        const { day, open, reason, closesAt, slots } = await bookings.daySlots(
          validated(res, 'query', daySlotsQuery).day,
        );
        res.json({
          day,
          open,
          ...(reason ? { reason } : {}),
          ...(closesAt ? { closesAt } : {}),
          slots: slots.map((slot) => slot.toISOString()),
        });
      },
    ],
    'GET /dates/currentDate': async (req, res) => {
      const current = await bookings.currentDate(callerOf(req));
      // `status` and `checkedInAt` let the patient area say they are checked in (no move, no cancel);
      // `refundForfeited`, that cancelling is no longer refunded; `bookingCode`, what to show at the kiosk.
      const body: CurrentDateView = current
        ? {
            // The id lets the patient area ask the payments service about this appointment.
            id: current.id,
            date: current.date.toISOString(),
            status: current.status,
            ...(current.checkedInAt ? { checkedInAt: current.checkedInAt.toISOString() } : {}),
            ...(current.refundForfeited ? { refundForfeited: true } : {}),
            ...(current.bookingCode ? { bookingCode: current.bookingCode } : {}),
            ...(current.paymentDueBy ? { paymentDueBy: current.paymentDueBy.toISOString() } : {}),
          }
        : { date: null };
      res.json(body);
    },
    'GET /dates': [
      validate('query', appointmentsQuery),
      async (req, res) => {
        const query = validated(res, 'query', appointmentsQuery);
        const { items, total, totalIsEstimate } = await bookings.list(query);
        await recordAccess(trail, req, {
          action: 'appointment.list',
          resource: 'appointment',
          patientIds: patientsOf(items),
        });
        const body: AppointmentsPage = {
          dates: items.map(toAppointmentView),
          ...paged(total, query.page, query.limit, totalIsEstimate),
        };
        res.json(body);
      },
    ],
    'GET /dates/id/:id': [
      validate('params', appointmentIdParam),
      async (req, res) => {
        const appointment = await bookings.findForCaller(
          callerOf(req),
          validated(res, 'params', appointmentIdParam).id,
        );
        await recordAccess(trail, req, {
          action: 'appointment.read',
          resource: 'appointment',
          resourceId: appointment.id,
          patientIds: [appointment.patientId],
        });
        res.json(toAppointmentView(appointment));
      },
    ],
    'GET /dates/userid/:id': [
      validate('params', appointmentIdParam),
      async (req, res) => {
        const { patient, appointments } = await bookings.activeOf(
          callerWithToken(req),
          validated(res, 'params', appointmentIdParam).id,
        );
        await recordPatientList(req, patient.id);
        const body: PatientAppointments = {
          user: toPatientView(patient),
          appointment: appointments.map(toAppointmentView),
        };
        res.json(body);
      },
    ],
    'GET /dates/history/userid/:id': [
      validate('params', appointmentIdParam),
      async (req, res) => {
        const { patient, appointments } = await bookings.historyOf(
          callerWithToken(req),
          validated(res, 'params', appointmentIdParam).id,
        );
        await recordPatientList(req, patient.id);
        const body: PatientHistory = {
          appointments: appointments.map(toAppointmentView),
          user: toPatientView(patient),
        };
        res.json(body);
      },
    ],
  } satisfies Partial<RouteHandlers<'appointments'>>;
}
