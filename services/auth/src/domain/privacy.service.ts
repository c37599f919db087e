import {
  ERASED_PATIENT_NAME,
  erasedEmail,
  userErased,
  userUpdated,
  type PersonalDataExport,
} from '@crm/contracts';
import { createEnvelope } from '@crm/event-bus';
import { correlationIdOrNew, fieldError, notFound } from '@crm/server-kit';
import { verifyPassword } from './password-hasher';
import { toSnapshot, toUserView, type SessionRevocations, type UserRepository } from './user';

/** The patient's appointments and records, read from their services (data/patient-data.client.ts). */
export interface PatientDataSource {
  appointmentsOf(caller: { id: string; bearerToken: string }): Promise<PersonalDataExport['appointments']>;
  recordsOf(caller: { id: string; bearerToken: string }): Promise<PersonalDataExport['records']>;
}

/**
 * The patient's rights (GDPR arts. 15, 17 and 20; docs/product/rights-and-access-trail.md#patient-rights): a
 * copy of everything the centre holds about them, and the erasure of their account. Erasure removes the
 * contact data and the password at once (sign-in fails, staff lists show neither e-mail nor phone), ends
 * every session, and tells the other services (`auth.user.erased.v1`): appointments cancels what is still
 * booked and pseudonymises the rest; records keeps the clinical records under a pseudonym for the legal
 * retention period (Ley 41/2002) and deletes them after it.
 */
export class PrivacyService {
  constructor(
    private readonly users: UserRepository,
    private readonly revocations: SessionRevocations,
    private readonly data: PatientDataSource,
    /** The sign-in's counters (AccountService.passwordChecked): erasure is no faster password oracle. */
    private readonly passwords: {
      passwordChecked<T>(
        email: string,
        clientKey: string,
        check: () => Promise<T | undefined>,
      ): Promise<T | undefined>;
    },
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async export(caller: { id: string; bearerToken: string }): Promise<PersonalDataExport> {
    const user = await this.users.findById(caller.id);
    if (!user) throw notFound('Usuario no encontrado');
    const [appointments, records] = await Promise.all([
      this.data.appointmentsOf(caller),
      this.data.recordsOf(caller),
    ]);
    return { exportedAt: this.clock().toISOString(), profile: toUserView(user), appointments, records };
  }

  async erase(id: string, password: string, clientKey: string): Promise<void> {
    const user = await this.users.findById(id);
    if (!user) throw notFound('Usuario no encontrado');
    const correct = await this.passwords.passwordChecked(user.email, clientKey, async () =>
      (await verifyPassword(user.passwordHash, password)) ? true : undefined,
    );
    if (!correct) throw fieldError(401, 'password', 'La contraseña no es correcta');
    const now = this.clock();
    const erased = {
      name: ERASED_PATIENT_NAME,
      email: erasedEmail(id),
      phone: '',
      passwordHash: '',
      confirmed: false,
      disabled: true,
      confirmationTokenHash: '',
      resetTokenHash: '',
      mfaSecret: '',
      mfaPendingSecret: '',
      mfaRecoveryHashes: [],
      sessionsValidAfter: now,
    };
    await this.users.update(id, erased, [
      createEnvelope(
        userUpdated,
        toSnapshot({ ...user, ...erased, phone: undefined, passwordHash: undefined }),
        correlationIdOrNew(),
      ),
      createEnvelope(userErased, { userId: id, erasedAt: now.toISOString() }, correlationIdOrNew()),
    ]);
    await this.revocations.invalidateSessionsBefore(id, new Date(now.getTime() + 1000));
  }
}
