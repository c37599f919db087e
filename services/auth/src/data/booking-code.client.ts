import { HttpError, serviceUnavailable, unauthorized } from '@crm/server-kit';
import type { BookingCodeCheck } from '../domain/kiosk.service';

/**
 * Whether a patient's live appointment carries a booking code: asked of the appointments service
 * (`POST /dates/code/verify`), which owns the codes and counts the wrong ones per patient, with the
 * kiosk's own token (so it applies its own rules).
 */
export class BookingCodeClient implements BookingCodeCheck {
  constructor(
    private readonly appointmentsUrl: string,
    private readonly timeoutMs: number,
  ) {}

  async matches(patientId: string, code: string, caller: { bearerToken: string }): Promise<boolean> {
    let response: Response;
    try {
      response = await fetch(`${this.appointmentsUrl.replace(/\/+$/, '')}/dates/code/verify`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${caller.bearerToken}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ pacientId: patientId, code }),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch {
      throw serviceUnavailable();
    }
    if (response.ok || response.status === 403) {
      await response.body?.cancel();
      return response.ok;
    }
    if (response.status === 401) throw unauthorized();
    if (response.status === 429) {
      // Too many wrong booking codes for the patient: the appointments service's answer is the kiosk's.
      const body = (await response.json().catch(() => ({}))) as { message?: string };
      const message = body.message ?? 'Demasiados intentos';
      throw new HttpError(429, message, [{ message, field: 'code' }]);
    }
    await response.body?.cancel();
    throw serviceUnavailable();
  }
}
