import { offerTokenParam, waitlistDayBody, waitlistDayParam, type WaitlistView } from '@crm/contracts';
import { callerOf, validate, validated, type RouteHandlers } from '@crm/server-kit';
import type { WaitlistService } from '../domain/waitlist.service';
import { toAppointmentView } from './appointment.view';
import { callerWithToken } from './caller';

/** The waiting list and its offers; patients only, each on their own entries and offers. */
export function waitlistHandlers(waitlist: WaitlistService) {
  return {
    'GET /dates/waitlist': [
      async (req, res) => {
        const body: WaitlistView = { entries: await waitlist.entriesOf(callerOf(req)) };
        res.json(body);
      },
    ],
    'POST /dates/waitlist': [
      validate('body', waitlistDayBody),
      async (req, res) => {
        const { day } = validated(res, 'body', waitlistDayBody);
        const { entry, created } = await waitlist.join(callerWithToken(req), day);
        res.status(created ? 201 : 200).json(entry);
      },
    ],
    'DELETE /dates/waitlist/:day': [
      validate('params', waitlistDayParam),
      async (req, res) => {
        const { day } = validated(res, 'params', waitlistDayParam);
        await waitlist.leave(callerOf(req), day);
        res.json({ message: 'Ha salido de la lista de espera', day });
      },
    ],
    'GET /dates/offer/:token': [
      validate('params', offerTokenParam),
      async (req, res) => {
        const offer = await waitlist.offerFor(callerOf(req), validated(res, 'params', offerTokenParam).token);
        res.json({ date: offer.date.toISOString(), expiresAt: offer.expiresAt.toISOString() });
      },
    ],
    'POST /dates/offer/:token': [
      validate('params', offerTokenParam),
      async (req, res) => {
        const booked = await waitlist.claim(callerOf(req), validated(res, 'params', offerTokenParam).token);
        res.status(201).json(toAppointmentView(booked));
      },
    ],
  } satisfies Partial<RouteHandlers<'appointments'>>;
}
