import { createHmac, randomInt } from 'node:crypto';
import {
  isBookingCode,
  isOneTimeCode,
  KIOSK_PROOF_MESSAGES,
  onboardingCodeRequested,
  ONE_TIME_CODE_LENGTH,
  tooManyAttemptsMessage,
  userUpdated,
  type OnboardingField,
  type OnboardingProof,
  type UserView,
} from '@crm/contracts';
import { createEnvelope } from '@crm/event-bus';
import { correlationIdOrNew, fieldError, HttpError, notFound } from '@crm/server-kit';
import type { AccountService } from './account.service';
import type { AttemptLimiter } from './attempt-limiter';
import { toSnapshot, toUserView, type User, type UserRepository } from './user';

/** What a live one-time code check found. */
export type OnboardingCodeCheck = 'match' | 'wrong' | 'none';

/** The one-time codes (only a keyed hash each), one live code per account, with its wrong tries. */
export interface OnboardingCodes {
  /** Replaces the account's code; it dies after `ttlMs`. */
  store(userId: string, hash: string, ttlMs: number): Promise<void>;
  /** Compares and, when wrong, counts a try in one step; the `maxTries`-th wrong try kills the code. */
  check(userId: string, hash: string, maxTries: number): Promise<OnboardingCodeCheck>;
}

/** The appointments service: does the patient's live appointment carry this booking code? */
export interface BookingCodeCheck {
  matches(patientId: string, code: string, caller: { bearerToken: string }): Promise<boolean>;
}

export interface KioskPolicy {
  codeTtlMs: number;
  /** Wrong tries that kill a one-time code. */
  codeMaxTries: number;
  /** Codes sent to one address per `windowSeconds`. */
  codeMaxSends: number;
  windowSeconds: number;
  /** Keys the hash of the codes, so a copy of the store does not give them away. */
  hashKey: string;
}

/** The answer to a code request, whatever the address (docs/product/kiosk.md#proof). */
export const CODE_SENT_MESSAGE =
  'Si el correo pertenece a una cuenta de paciente, le hemos enviado un código de 6 cifras. Revise su correo electrónico.';

const PATIENT_NOT_FOUND = 'Paciente no encontrado';

const refused = () =>
  new HttpError(403, KIOSK_PROOF_MESSAGES.wrong, [{ message: KIOSK_PROOF_MESSAGES.wrong, field: 'code' }]);

/** Who the kiosk names: by e-mail (the kiosk), or by id (the appointments service passing a code on). */
export type AccountRef = { email: string } | { patientId: string };

/**
 * The account a code proves and the fields it lacks; named by id, also the patient (for the
 * appointments service's read model).
 */
export interface AccountProof {
  patientId: string;
  missing: OnboardingField[];
  patient?: OnboardingProof['patient'];
}

/**
 * The kiosk and the accounts of the people in front of it (docs/product/kiosk.md#proof): the kiosk
 * reads or changes an existing patient only with proof the person holds the account — the one-time
 * code e-mailed to it, or the booking code of its live appointment (checked by the appointments
 * service). A new patient is created without one, and the creation hands the kiosk a one-time code
 * for the new account. Nothing here tells whether an address has an account before a code matched,
 * except the refusal to create it twice (as the public sign-up does).
 */
export class KioskService {
  constructor(
    private readonly users: UserRepository,
    private readonly accounts: AccountService,
    private readonly codes: OnboardingCodes,
    private readonly bookingCodes: BookingCodeCheck,
    private readonly limiter: AttemptLimiter,
    private readonly policy: KioskPolicy,
  ) {}

  /**
   * `POST /users/onboarding/code`: e-mails a new one-time code to the patient with this address.
   * Unknown and staff addresses get nothing, and the same answer; the sends per address are limited
   * before the address is even looked up, so the limit says nothing either.
   */
  async requestCode(email: string): Promise<void> {
    const { allowed, retryAfterSeconds } = await this.limiter.hit(
      `onboarding-code:${email}`,
      this.policy.codeMaxSends,
      this.policy.windowSeconds,
    );
    if (!allowed) {
      const message = tooManyAttemptsMessage(retryAfterSeconds);
      throw new HttpError(429, message, [{ message, field: 'email' }]);
    }
    const user = await this.users.findByEmail(email);
    if (!user || user.rol !== 'PACIENT') return;
    const { code, expiresAt } = await this.issue(user.id);
    await this.users.update(user.id, {}, [
      createEnvelope(
        onboardingCodeRequested,
        {
          userId: user.id,
          name: user.name,
          email: user.email,
          token: code,
          expiresAt: expiresAt.toISOString(),
        },
        correlationIdOrNew(),
      ),
    ]);
  }

  /**
   * `POST /users/onboarding/verify`: the account the code proves, and which of its fields the kiosk
   * may fill in. An unknown address, a staff account and a wrong code get the same 403. Named by id
   * (the appointments service), the answer also carries the patient, for its read model.
   */
  async verify(ref: AccountRef, code: string, caller: { bearerToken: string }): Promise<AccountProof> {
    const patient = await this.proven(ref, code, caller, 'any');
    return {
      patientId: patient.id,
      missing: missingFields(patient),
      ...('patientId' in ref
        ? {
            patient: {
              id: patient.id,
              name: patient.name,
              email: patient.email,
              ...(patient.phone ? { phone: patient.phone } : {}),
            },
          }
        : {}),
    };
  }

  /**
   * `POST /users/onboarding`. `create`: a new patient (invited by e-mail to set a password) and a
   * one-time code of the new account for the kiosk's next calls. `update`: with the account's
   * e-mailed one-time code, fills only the fields it does not have; what is on file is never
   * overwritten at the kiosk (a booking code, printed and long-lived, does not allow it).
   */
  async onboard(
    input: { email: string; name?: string; phone?: string; operation: 'create' | 'update'; code?: string },
    caller: { bearerToken: string },
  ): Promise<{ patient: UserView; code?: string }> {
    if (input.operation === 'create') {
      if (!input.name) throw fieldError(400, 'name', 'El nombre es obligatorio');
      const user = await this.accounts.invite(
        { name: input.name, email: input.email, ...(input.phone ? { phone: input.phone } : {}) },
        'kiosk',
      );
      const { code } = await this.issue(user.id);
      return { patient: toUserView(user), code };
    }
    if (!input.code) {
      const message = KIOSK_PROOF_MESSAGES.missing;
      throw new HttpError(403, message, [{ message, field: 'code' }]);
    }
    const existing = await this.proven({ email: input.email }, input.code, caller, 'oneTime');
    const changes = {
      ...(input.name && !existing.name.trim() ? { name: input.name } : {}),
      ...(input.phone && !existing.phone ? { phone: input.phone } : {}),
    };
    if (Object.keys(changes).length === 0) return { patient: toUserView(existing) };
    const updated = await this.users.update(existing.id, changes, [
      createEnvelope(userUpdated, toSnapshot({ ...existing, ...changes }), correlationIdOrNew()),
    ]);
    if (!updated) throw notFound(PATIENT_NOT_FOUND);
    return { patient: toUserView(updated) };
  }

  /** A fresh one-time code for the account (replacing any previous one); only its keyed hash is kept. */
  private async issue(userId: string): Promise<{ code: string; expiresAt: Date }> {
    const code = String(randomInt(0, 10 ** ONE_TIME_CODE_LENGTH)).padStart(ONE_TIME_CODE_LENGTH, '0');
    await this.codes.store(userId, this.hash(userId, code), this.policy.codeTtlMs);
    return { code, expiresAt: new Date(Date.now() + this.policy.codeTtlMs) };
  }

  /** The patient the code proves, or 403 (429 after too many wrong booking codes). */
  private async proven(
    ref: AccountRef,
    code: string,
    caller: { bearerToken: string },
    accepted: 'any' | 'oneTime',
  ): Promise<User> {
    const user =
      'email' in ref ? await this.users.findByEmail(ref.email) : await this.users.findById(ref.patientId);
    if (!user || user.rol !== 'PACIENT') throw refused();
    if (isOneTimeCode(code)) {
      const found = await this.codes.check(user.id, this.hash(user.id, code), this.policy.codeMaxTries);
      if (found === 'match') return user;
      throw refused();
    }
    if (accepted === 'any' && isBookingCode(code) && (await this.bookingCodes.matches(user.id, code, caller)))
      return user;
    throw refused();
  }

  private hash(userId: string, code: string): string {
    return createHmac('sha256', this.policy.hashKey).update(`${userId}:${code}`).digest('hex');
  }
}

/** The patient's fields the kiosk may fill in: those the account does not have. */
function missingFields(user: User): OnboardingField[] {
  const missing: OnboardingField[] = [];
  if (!user.name.trim()) missing.push('name');
  if (!user.phone) missing.push('phone');
  return missing;
}
