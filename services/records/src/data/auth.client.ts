import { z } from 'zod';
import { serviceUnavailable, unauthorized } from '@crm/server-kit';
import type { Caller, StaffDirectory } from '../domain/record';
import { getFromService, jsonOf } from '@crm/server-kit';

/** `GET /auth/currentUser` (auth service). */
const currentUserAnswer = z.object({
  id: z.string(),
  rol: z.string(),
  profile: z.object({ name: z.string() }),
});

export class AuthClient implements StaffDirectory {
  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs: number,
  ) {}

  /** The caller's name as the auth service knows it; 401 when their account no longer exists. */
  async nameOf(caller: Caller): Promise<string> {
    const response = await getFromService(this.baseUrl, '/auth/currentUser', caller, this.timeoutMs);
    if (response.status === 404) {
      await response.body?.cancel();
      throw unauthorized();
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw serviceUnavailable();
    }
    const parsed = currentUserAnswer.safeParse(await jsonOf(response));
    if (!parsed.success || parsed.data.id !== caller.id) throw serviceUnavailable();
    return parsed.data.profile.name;
  }
}
