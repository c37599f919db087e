import { z } from 'zod';
import { callService, HttpError, serviceUnavailable } from '@crm/server-kit';
import type { Caller } from '../domain/booking.service';
import type { OneTimeCodes } from '../domain/kiosk-proof';
import type { Patient, PatientLookup, PatientSource } from '../domain/patient';

const person = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  phone: z.string().optional(),
  rol: z.string(),
});
/** `GET /users/:id` (staff and the kiosk). */
const userByIdAnswer = z.object({ data: person });
/** `GET /auth/currentUser` (the patient themself). */
const currentUserAnswer = z.object({
  id: z.string(),
  rol: z.string(),
  profile: person.omit({ id: true, rol: true }),
});

/** `POST /users/onboarding/verify` in its `pacientId` form: the patient the one-time code proves. */
const proofAnswer = z.object({ pacientId: z.string(), patient: person.omit({ rol: true }) });

/**
 * Asks the auth service, with the caller's own token so it applies its own rules: for a patient the
 * read model has not seen yet (only staff may read other people by id; a patient reads themself),
 * and whether a code the kiosk passed on is the patient's e-mailed one-time code.
 */
export class AuthServiceClient implements PatientSource, OneTimeCodes {
  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs = 3000,
  ) {}

  async fetch(id: string, { bearerToken, self }: PatientLookup): Promise<Patient | undefined> {
    const path = self ? '/auth/currentUser' : `/users/${encodeURIComponent(id)}`;
    const response = await this.call(path, bearerToken);
    // 403: a caller who may not read people by id (the kiosk) learns nothing more than "unknown".
    if (response.status === 404 || response.status === 403) {
      await response.body?.cancel();
      return undefined;
    }
    if (!response.ok) throw serviceUnavailable();

    const body: unknown = await response.json().catch(() => undefined);
    const found = self ? fromCurrentUser(body) : fromUserById(body);
    return found && found.id === id && found.rol === 'PACIENT' ? toPatient(found) : undefined;
  }

  async verify(patientId: string, code: string, caller: Caller): Promise<Patient | undefined> {
    const response = await this.call('/users/onboarding/verify', caller.bearerToken, {
      pacientId: patientId,
      code,
    });
    if (response.status === 403) {
      await response.body?.cancel();
      return undefined;
    }
    if (response.status === 429) {
      // Too many wrong codes for the account: the auth service's answer is the kiosk's.
      const body = (await response.json().catch(() => ({}))) as { message?: string };
      const message = body.message ?? 'Demasiados intentos';
      throw new HttpError(429, message, [{ message, field: 'code' }]);
    }
    if (!response.ok) throw serviceUnavailable();
    const parsed = proofAnswer.safeParse(await response.json().catch(() => undefined));
    if (!parsed.success || parsed.data.pacientId !== patientId || parsed.data.patient.id !== patientId)
      throw serviceUnavailable();
    return toPatient({ ...parsed.data.patient, rol: 'PACIENT' });
  }

  private call(path: string, bearerToken: string, body?: object): Promise<Response> {
    return callService(this.baseUrl, path, { bearerToken }, this.timeoutMs, body);
  }
}

function fromCurrentUser(body: unknown) {
  const parsed = currentUserAnswer.safeParse(body);
  if (!parsed.success) throw serviceUnavailable();
  return { ...parsed.data.profile, id: parsed.data.id, rol: parsed.data.rol };
}

function fromUserById(body: unknown) {
  const parsed = userByIdAnswer.safeParse(body);
  if (!parsed.success) throw serviceUnavailable();
  return parsed.data.data;
}

const toPatient = ({ id, name, email, phone }: z.infer<typeof person>): Patient => ({
  id,
  name,
  email,
  ...(phone ? { phone } : {}),
});
