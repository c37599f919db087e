import { z } from 'zod';
import { currentCorrelationId, serviceUnavailable, unauthorized } from '@crm/server-kit';
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

/**
 * Asks the auth service for a patient the read model has not seen yet, with the caller's own token,
 * so the auth service applies its own rules (only staff and the kiosk may read other people).
 */
export class AuthServiceClient implements PatientSource {
  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs = 3000,
  ) {}

  async fetch(id: string, { bearerToken, self }: PatientLookup): Promise<Patient | undefined> {
    const path = self ? '/auth/currentUser' : `/users/${encodeURIComponent(id)}`;
    const correlationId = currentCorrelationId();
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl.replace(/\/+$/, '')}${path}`, {
        headers: {
          authorization: `Bearer ${bearerToken}`,
          ...(correlationId ? { 'x-request-id': correlationId } : {}),
        },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch {
      throw serviceUnavailable();
    }
    if (response.status === 404) return undefined;
    // The auth service knows about signed-out sessions; its refusal is the caller's.
    if (response.status === 401) throw unauthorized();
    if (!response.ok) throw serviceUnavailable();

    const body: unknown = await response.json().catch(() => undefined);
    const found = self ? fromCurrentUser(body) : fromUserById(body);
    return found && found.id === id && found.rol === 'PACIENT' ? toPatient(found) : undefined;
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
