import { z } from 'zod';
import { APPOINTMENT_STATUSES } from '@crm/contracts';
import { serviceUnavailable } from '@crm/server-kit';
import type { AppointmentSnapshot, AppointmentSource, Caller } from '../domain/record';
import { getFromService, jsonOf } from '@crm/server-kit';

/** The part of `GET /dates/id/:id` (appointments service) a record needs. */
const appointmentAnswer = z.object({
  id: z.string(),
  date: z.iso.datetime({ offset: true }),
  status: z.enum(APPOINTMENT_STATUSES),
  pacientId: z.string(),
  user: z.object({ name: z.string() }),
});

export class AppointmentsClient implements AppointmentSource {
  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs: number,
  ) {}

  async find(dateId: string, caller: Caller): Promise<AppointmentSnapshot | undefined> {
    const response = await getFromService(
      this.baseUrl,
      `/dates/id/${encodeURIComponent(dateId)}`,
      caller,
      this.timeoutMs,
    );
    if (response.status === 404 || response.status === 400) {
      await response.body?.cancel();
      return undefined;
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw serviceUnavailable();
    }
    const parsed = appointmentAnswer.safeParse(await jsonOf(response));
    if (!parsed.success) throw serviceUnavailable();
    const { id, date, status, pacientId, user } = parsed.data;
    return { id, date: new Date(date), status, patientId: pacientId, patientName: user.name };
  }
}
