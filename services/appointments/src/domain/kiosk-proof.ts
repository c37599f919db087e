import { isBookingCode, isOneTimeCode, KIOSK_PROOF_MESSAGES, tooManyAttemptsMessage } from '@crm/contracts';
import { HttpError } from '@crm/server-kit';
import type { AppointmentRepository } from './appointment';
import type { Caller } from './booking.service';
import type { Patient, PatientReadModel } from './patient';

/** The auth service, which keeps the e-mailed one-time codes and counts their wrong tries. */
export interface OneTimeCodes {
  /** The patient, if `code` is their live one-time code; undefined if not (the try is counted there). */
  verify(patientId: string, code: string, caller: Caller): Promise<Patient | undefined>;
}

/** Wrong booking codes per patient (the one-time codes' tries are counted by the auth service). */
export interface CodeTries {
  /**
   * Counts a try before the code is compared, so parallel guesses cannot slip past the limit.
   * Answers the seconds to wait when the patient's tries in the window are used up.
   */
  reserve(patientId: string, now: Date): Promise<{ id: string; retryAfterSeconds?: number }>;
  /** A try whose code matched does not count. */
  cancel(id: string): Promise<void>;
}

export interface KioskProofPolicy {
  /** Wrong booking codes of one patient within `windowMs` before further tries are refused. */
  maxTries: number;
  windowMs: number;
}

const refused = (message: string) => new HttpError(403, message, [{ message, field: 'code' }]);

/**
 * The kiosk acts on an existing patient only with proof that the person in front of it is that
 * patient (docs/product/kiosk.md#proof): the booking code of their live appointment, or the one-time
 * code e-mailed to their account. Doctors and admins, who see the person, need none.
 */
export class KioskProof {
  constructor(
    private readonly appointments: Pick<AppointmentRepository, 'codeHolder'>,
    private readonly oneTimeCodes: OneTimeCodes,
    private readonly tries: CodeTries,
    private readonly patients: Pick<PatientReadModel, 'save'>,
    private readonly policy: KioskProofPolicy,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** Throws 403 (or 429 after too many wrong booking codes) unless the caller may act on the patient. */
  async require(caller: Caller, patientId: string, code: string | undefined): Promise<void> {
    if (caller.rol !== 'SERVICE_ACCOUNT') return;
    if (!code) throw refused(KIOSK_PROOF_MESSAGES.missing);
    if (isOneTimeCode(code)) return this.oneTimeCode(caller, patientId, code);
    if (!isBookingCode(code) || !(await this.bookingCode(patientId, code)))
      throw refused(KIOSK_PROOF_MESSAGES.wrong);
  }

  /** `POST /dates/code/verify`: the booking code alone (the auth service asks on the kiosk's behalf). */
  async verifyBookingCode(patientId: string, code: string): Promise<void> {
    if (!isBookingCode(code) || !(await this.bookingCode(patientId, code)))
      throw refused(KIOSK_PROOF_MESSAGES.wrong);
  }

  private async bookingCode(patientId: string, code: string): Promise<boolean> {
    const now = this.clock();
    const attempt = await this.tries.reserve(patientId, now);
    if (attempt.retryAfterSeconds !== undefined) {
      const message = tooManyAttemptsMessage(attempt.retryAfterSeconds);
      throw new HttpError(429, message, [{ message, field: 'code' }]);
    }
    const holder = await this.appointments.codeHolder(patientId, code);
    if (!holder) return false;
    await this.tries.cancel(attempt.id);
    // Known to the read model from then on, if it was not (the kiosk cannot have auth asked by id):
    // the oldest possible version, so any version stored or announced wins over it.
    await this.patients.save(holder, new Date(0));
    return true;
  }

  private async oneTimeCode(caller: Caller, patientId: string, code: string): Promise<void> {
    const asOf = this.clock();
    const patient = await this.oneTimeCodes.verify(patientId, code, caller);
    if (!patient) throw refused(KIOSK_PROOF_MESSAGES.wrong);
    // The auth service answered with the patient as it knows them now: the read model may not have
    // them yet (event lag), and the kiosk cannot read people by id.
    await this.patients.save(patient, asOf);
  }
}
