import type { Request, Response } from 'express';
import {
  agendaQuery,
  appointmentIdParam,
  CENTRE_TIME_ZONE,
  pacientBody,
  type AgendaResponse,
} from '@crm/contracts';
import { callerOf, validate, validated, type RouteHandlers } from '@crm/server-kit';
import type { AuditTrail } from '@crm/server-kit/service';
import type { Actor, Appointment } from '../domain/appointment';
import type { BookingService } from '../domain/booking.service';
import type { KioskProof } from '../domain/kiosk-proof';
import type { LifecycleService } from '../domain/lifecycle.service';
import { disclosingHeld, patientsOf, recordAccess } from './access-trail';
import { callerWithToken } from './caller';
import { toAgendaEntry, toAppointmentView } from './appointment.view';

/**
 * The `/dates` calls of the day at the centre (roles from the route table): check-in, attended,
 * no-show, the agenda, "be seen now". Every one is a staff or kiosk access, recorded in the access
 * trail.
 */
export function lifecycleHandlers(
  lifecycle: LifecycleService,
  bookings: BookingService,
  proof: KioskProof,
  trail: AuditTrail,
) {
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
      patientIds: [appointment.patientId],
    });
    res.status(status).json(toAppointmentView(appointment));
  };
  /** `POST /dates/<what>/:id`: a transition of one appointment by the staff. */
  const transitionById = (action: string, run: (caller: Actor, id: string) => Promise<Appointment>) => [
    byId,
    async (req: Request, res: Response) => {
      const { id } = validated(res, 'params', appointmentIdParam);
      await recordAndAnswer(req, res, action, await run(callerOf(req), id));
    },
  ];

  return {
    'GET /dates/agenda': [
      validate('query', agendaQuery),
      async (req, res) => {
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
      },
    ],
    'POST /dates/checkin': [
      validate('body', pacientBody),
      async (req, res) => {
        const { pacientId: patientId, code } = validated(res, 'body', pacientBody);
        const caller = callerWithToken(req);
        // The kiosk's proof first: whether the patient has an appointment today is theirs to know.
        await proof.require(caller, patientId, code);
        const checkedIn = await lifecycle.checkInPatient(caller, patientId);
        await recordAndAnswer(req, res, 'appointment.check-in', checkedIn);
      },
    ],
    'POST /dates/checkin/:id': transitionById('appointment.check-in', (caller, id) =>
      lifecycle.checkIn(caller, id),
    ),
    'POST /dates/attended/:id': transitionById('appointment.attend', (caller, id) =>
      lifecycle.end(caller, id, 'attended'),
    ),
    'POST /dates/noshow/:id': transitionById('appointment.no-show', (caller, id) =>
      lifecycle.end(caller, id, 'noShow'),
    ),
    'POST /dates/service/now': [
      validate('body', pacientBody),
      async (req, res) => {
        const { pacientId: patientId, code } = validated(res, 'body', pacientBody);
        const caller = callerWithToken(req);
        await proof.require(caller, patientId, code);
        // A walk-in now (replacing a later appointment, if any): a booking by the kiosk.
        const walkIn = await disclosingHeld(trail, req, patientId, () => bookings.seeNow(caller, patientId));
        await recordAndAnswer(req, res, 'appointment.book', walkIn, 201);
      },
    ],
  } satisfies Partial<RouteHandlers<'appointments'>>;
}
