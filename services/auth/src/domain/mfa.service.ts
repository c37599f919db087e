import { randomInt } from 'node:crypto';
import { authenticator } from 'otplib';
import QRCode from 'qrcode';
import {
  secondFactorLocked,
  tooManyAttemptsMessage,
  type MfaChallengeResponse,
  type MfaSetupResponse,
  type Role,
  type SignInResponse,
} from '@crm/contracts';
import { createEnvelope } from '@crm/event-bus';
import { badRequest, conflict, correlationIdOrNew, fieldError, HttpError, notFound } from '@crm/server-kit';
import type { SessionTokens } from './account.service';
import { sessionsCountAgain } from './session-timing';
import { hashPassword, verifyPassword } from './password-hasher';
import type { FactorAttempts, FactorGuardPolicy } from './second-factor-guard';
import type { User, UserRepository } from './user';

/** A sign-in waiting for its code (`signin`), or for the person to set up the factor first (`enrol`). */
export interface MfaChallenge {
  userId: string;
  purpose: 'signin' | 'enrol';
}

/** The short-lived `mfaToken`s handed out by sign-in (data/mfa-challenge.store.ts). */
export interface MfaChallenges {
  open(challenge: MfaChallenge): Promise<string>;
  find(token: string): Promise<MfaChallenge | undefined>;
  /** Counts a wrong code; too many end the challenge. */
  failed(token: string): Promise<void>;
  /** Ends it; false when it had ended already (used by a concurrent call). */
  close(token: string): Promise<boolean>;
}

/** Encrypts the authenticator secrets at rest (data/secret-box.ts). */
export interface SecretSealer {
  seal(plain: string): string;
  open(sealed: string): string;
}

export interface MfaOptions {
  issuer: string;
  /** Roles that must set up the factor at their next sign-in. */
  requiredRoles: readonly Role[];
  guard: FactorGuardPolicy;
}

/** One 30-second step either side is accepted (phones' clocks drift). */
const totp = authenticator.clone({ window: 1 });
const RECOVERY_CODES = 10;
const STEP_MS = 30_000;
const WRONG_CODE = 'Código incorrecto o caducado';

const wrongCode = () => fieldError(401, 'code', WRONG_CODE);
const ACCOUNT_DISABLED = 'Esta cuenta está desactivada. Consulte con la administración del centro';

function refused(attempt: { locked: boolean; retryAfterSeconds: number }): HttpError {
  const message = attempt.locked
    ? `La verificación en dos pasos de esta cuenta está bloqueada por demasiados códigos incorrectos. Inténtelo de nuevo en ${Math.ceil(attempt.retryAfterSeconds / 60)} minutos.`
    : tooManyAttemptsMessage(attempt.retryAfterSeconds);
  return new HttpError(429, message, [{ field: 'code', message }]);
}
const normaliseRecovery = (code: string) => code.trim().toLowerCase().replace('-', '');
/**
 * `abcde-12345`: about 52 bits from a 36-letter alphabet, shown once. Below 112 bits, so stored as
 * argon2id with its own salt, like a password (ASVS 6.5.2).
 */
function newRecoveryCode(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const chars = Array.from({ length: 10 }, () => alphabet[randomInt(alphabet.length)]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

/**
 * The second factor (docs/product/rights-and-access-trail.md#second-factor): time-based one-time passwords
 * (RFC 6238, otplib) with 10 single-use recovery codes. A code is accepted in the current 30-second step or
 * the one either side (clock drift), once: its step is consumed by an insert under a unique key, so a
 * replayed or concurrently reused code is refused.
 */
export class MfaService {
  constructor(
    private readonly users: UserRepository,
    private readonly challenges: MfaChallenges,
    private readonly box: SecretSealer,
    private readonly tokens: SessionTokens,
    private readonly options: MfaOptions,
    private readonly attempts: FactorAttempts,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** After a correct password: the challenge to answer, or undefined when no second factor is due. */
  async challengeFor(user: User): Promise<MfaChallengeResponse | undefined> {
    if (user.mfaSecret)
      return {
        mfaRequired: true,
        mfaToken: await this.challenges.open({ userId: user.id, purpose: 'signin' }),
      };
    if (this.options.requiredRoles.includes(user.rol))
      return {
        mfaRequired: true,
        mfaSetupRequired: true,
        mfaToken: await this.challenges.open({ userId: user.id, purpose: 'enrol' }),
      };
    return undefined;
  }

  /** `POST /auth/signIn/mfa`: the code (or a recovery code) of the sign-in behind `mfaToken`. */
  async signIn(mfaToken: string, code: string): Promise<SignInResponse> {
    const challenge = await this.challenges.find(mfaToken);
    if (challenge?.purpose !== 'signin') throw wrongCode();
    const user = await this.users.findById(challenge.userId);
    if (!user?.mfaSecret || user.disabled) throw wrongCode();
    // Counted before the code is checked: the account's count, whatever challenge or address.
    const attempt = await this.attempts.reserve(user.id, this.clock());
    if (!attempt.allowed) throw refused(attempt);
    if (!(await this.accepts(user, user.mfaSecret, code, true))) {
      await this.challenges.failed(mfaToken);
      if (attempt.failures >= this.options.guard.maxFailures) await this.announceLock(user, attempt.failures);
      throw wrongCode();
    }
    await this.attempts.clear(user.id);
    if (!(await this.challenges.close(mfaToken))) throw wrongCode();
    return await this.sessionFor(user);
  }

  /** The account a sign-in's `mfaToken` is for, while it is open (the access trail names it). */
  async challengedAccount(mfaToken: string): Promise<string | undefined> {
    return (await this.challenges.find(mfaToken))?.userId;
  }

  /** Who an enrolment call is for: the `mfaToken` of a sign-in that must enrol. */
  async enrollingUser(mfaToken: string): Promise<string> {
    const challenge = await this.challenges.find(mfaToken);
    if (challenge?.purpose !== 'enrol')
      throw fieldError(401, 'mfaToken', 'La sesión ha caducado: vuelva a iniciar sesión');
    return challenge.userId;
  }

  /** `POST /auth/mfa/setup`: a new secret, kept aside until a first code confirms it. */
  async setup(userId: string): Promise<MfaSetupResponse> {
    const user = await this.users.findById(userId);
    if (!user) throw notFound('Usuario no encontrado');
    if (user.mfaSecret) throw conflict('El segundo factor ya está activado');
    const secret = totp.generateSecret(20);
    await this.users.update(user.id, { mfaPendingSecret: this.box.seal(secret) }, []);
    const otpauthUrl = totp.keyuri(user.email, this.options.issuer, secret);
    return { secret, otpauthUrl, qrDataUrl: await QRCode.toDataURL(otpauthUrl, { margin: 1, width: 240 }) };
  }

  /**
   * `POST /auth/mfa/confirm`: the first code proves the app holds the secret; the factor is on from
   * now, and the 10 recovery codes are shown this once. With `mfaToken` (enrolment during a
   * sign-in) the sign-in completes too.
   */
  async confirm(
    userId: string,
    code: string,
    mfaToken?: string,
  ): Promise<{ recoveryCodes: string[]; user: User }> {
    const user = await this.users.findById(userId);
    if (!user) throw notFound('Usuario no encontrado');
    // Disabled while enrolling (between the password and the first code): no session for it.
    if (user.disabled) throw fieldError(403, 'email', ACCOUNT_DISABLED);
    if (user.mfaSecret) throw conflict('El segundo factor ya está activado');
    if (!user.mfaPendingSecret) throw badRequest('Configure primero el segundo factor');
    if (!(await this.accepts(user, user.mfaPendingSecret, code, false))) {
      if (mfaToken) await this.challenges.failed(mfaToken);
      throw wrongCode();
    }
    if (mfaToken && !(await this.challenges.close(mfaToken))) throw wrongCode();
    const recoveryCodes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
    const updated = await this.users.update(
      user.id,
      {
        mfaSecret: user.mfaPendingSecret,
        mfaPendingSecret: '',
        mfaRecoveryHashes: await Promise.all(recoveryCodes.map((c) => hashPassword(normaliseRecovery(c)))),
      },
      [],
    );
    return { recoveryCodes, user: updated ?? user };
  }

  async sessionFor(user: User): Promise<SignInResponse> {
    await sessionsCountAgain(user);
    return {
      id: user.id,
      sessiontoken: this.tokens.sign({ id: user.id, rol: user.rol }).token,
      rol: user.rol,
      confirmed: user.confirmed,
    };
  }

  /** The holder hears of it: whoever typed the codes knew the password. */
  private async announceLock(user: User, failures: number): Promise<void> {
    const lockedUntil = new Date(this.clock().getTime() + this.options.guard.lockMs).toISOString();
    await this.users.update(user.id, {}, [
      createEnvelope(
        secondFactorLocked,
        { userId: user.id, name: user.name, email: user.email, failures, lockedUntil },
        correlationIdOrNew(),
      ),
    ]);
  }

  private async accepts(
    user: User,
    sealedSecret: string,
    code: string,
    recoveryAllowed: boolean,
  ): Promise<boolean> {
    const now = this.clock();
    if (/^\d{6}$/.test(code)) {
      const delta = totp.checkDelta(code, this.box.open(sealedSecret));
      if (delta === null) return false;
      const step = Math.floor(now.getTime() / STEP_MS) + delta;
      return this.users.consumeOnce(`totp:${user.id}:${step}`, now);
    }
    if (!recoveryAllowed) return false;
    const hashes = user.mfaRecoveryHashes ?? [];
    for (let index = 0; index < hashes.length; index++)
      if (await verifyPassword(hashes[index], normaliseRecovery(code)))
        return this.users.consumeOnce(`recovery:${user.id}:${index}:${hashes[index]!.slice(-16)}`, now);
    return false;
  }
}
