import {
  confirmationRequested,
  passwordResetRequested,
  userRegistered,
  userInvited,
  userUpdated,
  type EventEnvelope,
  type Role,
  type MfaChallengeResponse,
  type SignInAnswer,
  type SignInResponse,
  tooManyAttemptsMessage,
  type UserView,
} from '@crm/contracts';
import { createEnvelope } from '@crm/event-bus';
import {
  badRequest,
  conflict,
  correlationIdOrNew,
  fieldError,
  HttpError,
  notFound,
  type AuthenticatedUser,
} from '@crm/server-kit';
import type { AttemptLimiter } from './attempt-limiter';
import { nextWholeSecond, sessionsCountAgain } from './session-timing';
import { hashToken, newOneTimeToken } from './one-time-token';
import { hashPassword, verifyPassword } from './password-hasher';
import {
  EmailTakenError,
  toSnapshot,
  toUserView,
  type NewUser,
  type SessionRevocations,
  type User,
  type UserPageQuery,
  type UserRepository,
} from './user';

export interface SessionTokens {
  sign(user: { id: string; rol: Role }): { token: string; claims: { exp: number } };
}

export interface AccountPolicy {
  signInMaxAttempts: number;
  signInMaxAttemptsPerClient: number;
  forgotPasswordMaxAttempts: number;
  /** Confirmation e-mails re-sent per address and window (the same window as the other limits). */
  resendConfirmationMaxAttempts: number;
  resendConfirmationMaxAttemptsPerClient: number;
  attemptWindowSeconds: number;
  confirmationTtlMs: number;
  resetTtlMs: number;
  /** How long the set-your-password link of an invitation (staff or kiosk registration) stays valid. */
  invitationTtlMs: number;
  /** The same for a doctor or admin an admin invited. */
  staffInvitationTtlMs: number;
  /** Roles that must set up a second factor (an invitation says so only to them). */
  mfaRequiredRoles?: readonly Role[];
}

export interface PersonInput {
  name: string;
  email: string;
  phone?: string;
  password?: string;
}

type Channel = 'signup' | 'staff' | 'kiosk' | 'bootstrap';

/** What a person reads (Spanish, formal "usted" like the site); the field travels as `field`. */
const INVALID_CREDENTIALS = 'Correo electrónico o contraseña incorrectos';
const EMAIL_TAKEN = 'Ya existe una cuenta con este correo electrónico';
const INVALID_LINK = 'El enlace no es válido o ha caducado';
const PATIENT_NOT_FOUND = 'Paciente no encontrado';
const ACCOUNT_DISABLED = 'Esta cuenta está desactivada. Consulte con la administración del centro';

/**
 * The account rules (docs/product/booking.md#account-screens): sign-up, sign-in, confirmation, password
 * reset, staff and kiosk.
 */
export class AccountService {
  constructor(
    private readonly users: UserRepository,
    private readonly revocations: SessionRevocations,
    private readonly tokens: SessionTokens,
    private readonly limiter: AttemptLimiter,
    private readonly policy: AccountPolicy,
    /** The second factor due after a correct password, if any (mfa.service.ts). */
    private readonly secondFactor?: { challengeFor(user: User): Promise<MfaChallengeResponse | undefined> },
  ) {}

  async signUp(input: Required<Omit<PersonInput, 'phone'>> & { phone: string }): Promise<SignInResponse> {
    const confirmation = newOneTimeToken();
    const expiresAt = new Date(Date.now() + this.policy.confirmationTtlMs);
    const user = await this.register(
      {
        ...input,
        rol: 'PACIENT',
        confirmed: false,
        confirmationTokenHash: confirmation.hash,
        confirmationExpiresAt: expiresAt,
      },
      'signup',
      (id) => [
        confirmationEvent({ id, name: input.name, email: input.email }, confirmation.token, expiresAt),
      ],
    );
    return this.sessionFor(user);
  }

  /**
   * Sends the confirmation e-mail again with a new link; the new token replaces the stored one, so
   * older links stop working. Answers the same (nothing) whether the address is unknown, already
   * confirmed or waiting, so the form cannot be used to probe e-mails. Limited per address.
   */
  async resendConfirmation(email: string, clientKey: string): Promise<void> {
    await this.limit(`resend-confirmation:${email}`, this.policy.resendConfirmationMaxAttempts);
    await this.limit(
      `resend-confirmation-client:${clientKey}`,
      this.policy.resendConfirmationMaxAttemptsPerClient,
    );
    const user = await this.users.findByEmail(email);
    // A patient without a password (invited) has the invitation or "forgot password", whose link
    // also confirms; a confirmation link alone would not let them in.
    if (!user || user.confirmed || user.rol !== 'PACIENT' || !user.passwordHash) return;
    const confirmation = newOneTimeToken();
    const expiresAt = new Date(Date.now() + this.policy.confirmationTtlMs);
    await this.users.update(
      user.id,
      { confirmationTokenHash: confirmation.hash, confirmationExpiresAt: expiresAt },
      [confirmationEvent(user, confirmation.token, expiresAt)],
    );
  }

  /**
   * Throttled on failures only: each attempt is counted first (so parallel guesses cannot slip
   * past the limit), and a success gives its counts back. The account's counter is kept per client
   * address, so someone else's failures lock that account only from their own address and never
   * shut the owner out; the per-address counter stops one address guessing many accounts.
   */
  async signIn(email: string, password: string, clientKey: string): Promise<SignInAnswer> {
    const user = await this.passwordChecked(email, clientKey, async () => {
      const found = await this.users.findByEmail(email);
      return (await verifyPassword(found?.passwordHash, password)) ? found : undefined;
    });
    if (!user) throw fieldError(401, 'password', INVALID_CREDENTIALS);
    if (user.disabled) throw fieldError(403, 'email', ACCOUNT_DISABLED);
    const challenge = await this.secondFactor?.challengeFor(user);
    if (challenge) return challenge;
    // An unconfirmed patient signs in too (`confirmed: false`): the patient area asks them to confirm.
    await sessionsCountAgain(user);
    return this.sessionFor(user);
  }

  /**
   * Every check of a password (sign-in, erasure of the account) goes through the same counters, so
   * no call that answers "wrong password" can be used to guess one faster than sign-in allows.
   * `check` answers what the correct password unlocks, or undefined for a wrong one.
   */
  async passwordChecked<T>(
    email: string,
    clientKey: string,
    check: () => Promise<T | undefined>,
  ): Promise<T | undefined> {
    const accountKey = `signin:${email}:${clientKey}`;
    const addressKey = `signin-client:${clientKey}`;
    await this.limit(accountKey, this.policy.signInMaxAttempts);
    await this.limit(addressKey, this.policy.signInMaxAttemptsPerClient);
    const unlocked = await check();
    if (unlocked !== undefined)
      await Promise.all([this.limiter.reset(accountKey), this.limiter.undo(addressKey)]);
    return unlocked;
  }

  /** The id of the account with this e-mail, if any (the access trail's failed sign-ins name it). */
  async accountIdOf(email: string): Promise<string | undefined> {
    return (await this.users.findByEmail(email))?.id;
  }

  async currentUser(caller: AuthenticatedUser): Promise<UserView> {
    const user = await this.users.findById(caller.id);
    if (!user) throw notFound('Usuario no encontrado');
    return { ...toUserView(user), mfaEnabled: Boolean(user.mfaSecret) };
  }

  async signOut(caller: AuthenticatedUser): Promise<void> {
    await this.revocations.revoke(caller.tokenId, new Date(caller.expiresAt * 1000));
  }

  /** Answers the same whether or not the account exists, so the form cannot be used to probe e-mails. */
  async forgotPassword(email: string): Promise<void> {
    await this.limit(`forgot:${email}`, this.policy.forgotPasswordMaxAttempts);
    const user = await this.users.findByEmail(email);
    if (!user) return;
    const reset = newOneTimeToken();
    const expiresAt = new Date(Date.now() + this.policy.resetTtlMs);
    await this.users.update(user.id, { resetTokenHash: reset.hash, resetExpiresAt: expiresAt }, [
      createEnvelope(
        passwordResetRequested,
        {
          userId: user.id,
          name: user.name,
          email: user.email,
          token: reset.token,
          expiresAt: expiresAt.toISOString(),
        },
        correlationIdOrNew(),
      ),
    ]);
  }

  /**
   * Sets the password through a reset or invitation link (which also confirms the account); every
   * session issued before ends. Answers the account's e-mail, so that the page can sign in with the
   * new password and take the person straight into their area (sign-in waits for the second from
   * which sessions count again). The first password of an invited patient is announced
   * (`canSignIn: true`).
   */
  async resetPassword(token: string, password: string): Promise<{ email: string }> {
    const now = new Date();
    const passwordHash = await hashPassword(password);
    // Announced when it changes what others know: a first password, or a first confirmation.
    const user = await this.users.resetPassword(hashToken(token), passwordHash, now, (before) =>
      before.passwordHash && before.confirmed
        ? []
        : [
            createEnvelope(
              userUpdated,
              toSnapshot({ ...before, passwordHash, confirmed: true }),
              correlationIdOrNew(),
            ),
          ],
    );
    if (!user) throw badRequest(INVALID_LINK, [{ message: INVALID_LINK }]);
    // Token `iat` is in whole seconds: a session issued earlier in this same second must end too.
    await this.revocations.invalidateSessionsBefore(user.id, nextWholeSecond(now));
    return { email: user.email };
  }

  async confirmAccount(token: string): Promise<'confirmed' | 'already'> {
    const hash = hashToken(token);
    const confirmed = await this.users.confirm(hash, new Date(), (before) => [
      createEnvelope(userUpdated, toSnapshot({ ...before, confirmed: true }), correlationIdOrNew()),
    ]);
    if (confirmed) return 'confirmed';
    const user = await this.users.findByConfirmationTokenHash(hash);
    if (user?.confirmed) return 'already';
    throw badRequest(INVALID_LINK, [{ message: INVALID_LINK }]);
  }

  /**
   * Staff register a patient they have in front of them. With a password, the account is ready and
   * confirmed (staff saw them in person); without one, the patient gets an invitation e-mail whose
   * link sets the password (and confirms the address).
   */
  async createPatientByStaff(input: PersonInput & { phone: string }): Promise<UserView> {
    if (input.password) {
      return toUserView(await this.register({ ...input, rol: 'PACIENT', confirmed: true }, 'staff'));
    }
    const { password: _none, ...person } = input;
    return toUserView(await this.invite(person, 'staff'));
  }

  /** The kiosk creates a walk-in patient or completes the missing name/phone of an existing one. */
  async onboard(input: {
    email: string;
    name?: string;
    phone?: string;
    operation: 'create' | 'update';
  }): Promise<UserView> {
    if (input.operation === 'create') {
      if (!input.name) throw fieldError(400, 'name', 'El nombre es obligatorio');
      const user = await this.invite(
        { name: input.name, email: input.email, ...(input.phone ? { phone: input.phone } : {}) },
        'kiosk',
      );
      return toUserView(user);
    }
    const existing = await this.findPatientByEmail(input.email);
    const changes = {
      ...(input.name ? { name: input.name } : {}),
      ...(input.phone ? { phone: input.phone } : {}),
    };
    const merged = { ...existing, ...changes };
    const updated = await this.users.update(existing.id, changes, [
      createEnvelope(userUpdated, toSnapshot(merged), correlationIdOrNew()),
    ]);
    if (!updated) throw notFound(PATIENT_NOT_FOUND);
    return toUserView(updated);
  }

  /** Only patients can be looked up: the kiosk must never reveal or touch staff accounts. */
  async findPatientByEmail(email: string): Promise<User> {
    const user = await this.users.findByEmail(email);
    if (!user || user.rol !== 'PACIENT') throw notFound(PATIENT_NOT_FOUND);
    return user;
  }

  async findPatientById(id: string): Promise<User> {
    const user = await this.users.findById(id);
    if (!user || user.rol !== 'PACIENT') throw notFound(PATIENT_NOT_FOUND);
    return user;
  }

  async listUsers(query: UserPageQuery): Promise<{ items: UserView[]; total: number }> {
    const { items, total } = await this.users.page(query);
    return { items: items.map(toUserView), total };
  }

  /** A token counts until it is signed out, or until a password reset that came after it. */
  async isSessionValid(caller: AuthenticatedUser): Promise<boolean> {
    if (await this.revocations.isRevoked(caller.tokenId)) return false;
    const user = await this.users.findById(caller.id);
    if (!user || user.disabled) return false;
    const validAfter = user.sessionsValidAfter
      ? nextWholeSecond(user.sessionsValidAfter).getTime() / 1000
      : 0;
    return caller.issuedAt >= validAfter;
  }

  /** Creates the configured staff accounts once; concurrent replicas race harmlessly on the unique e-mail. */
  async ensureAccount(account: {
    email: string;
    password: string;
    rol: Role;
    name: string;
  }): Promise<boolean> {
    if (await this.users.findByEmail(account.email)) return false;
    try {
      await this.register({ ...account, confirmed: true }, 'bootstrap');
      return true;
    } catch (error) {
      if (error instanceof HttpError && error.status === 409) return false;
      throw error;
    }
  }

  /**
   * A person without a password: the invitation's link (a reset token) is their way in. Patients
   * registered by staff or at the kiosk, and doctors or admins an admin invited (`staffAccount`).
   */
  async invite(
    person: { name: string; email: string; phone?: string },
    channel: 'staff' | 'kiosk' | 'staffAccount',
    rol: Role = 'PACIENT',
  ): Promise<User> {
    const invitation = newOneTimeToken();
    const ttlMs = channel === 'staffAccount' ? this.policy.staffInvitationTtlMs : this.policy.invitationTtlMs;
    const expiresAt = new Date(Date.now() + ttlMs);
    return this.register(
      {
        ...person,
        rol,
        confirmed: false,
        resetTokenHash: invitation.hash,
        resetExpiresAt: expiresAt,
      },
      channel === 'staffAccount' ? 'staff' : channel,
      (id) => [
        createEnvelope(
          userInvited,
          {
            userId: id,
            name: person.name,
            email: person.email,
            token: invitation.token,
            expiresAt: expiresAt.toISOString(),
            channel,
            ...(rol === 'PACIENT' ? {} : { rol }),
            mfaRequired: this.policy.mfaRequiredRoles?.includes(rol) ?? false,
          },
          correlationIdOrNew(),
        ),
      ],
    );
  }

  private async register(
    person: PersonInput & Omit<NewUser, 'name' | 'email' | 'passwordHash'>,
    channel: Channel,
    extraEvents: (id: string) => EventEnvelope[] = () => [],
  ): Promise<User> {
    const { password, ...fields } = person;
    const passwordHash = password ? await hashPassword(password) : undefined;
    try {
      return await this.users.create({ ...fields, ...(passwordHash ? { passwordHash } : {}) }, (id) => [
        createEnvelope(
          userRegistered,
          { ...toSnapshot({ ...fields, id, passwordHash }), channel },
          correlationIdOrNew(),
        ),
        ...extraEvents(id),
      ]);
    } catch (error) {
      if (error instanceof EmailTakenError) {
        throw conflict(EMAIL_TAKEN, [{ field: 'email', message: EMAIL_TAKEN }]);
      }
      throw error;
    }
  }

  private sessionFor(user: User): SignInResponse {
    return {
      id: user.id,
      sessiontoken: this.tokens.sign({ id: user.id, rol: user.rol }).token,
      rol: user.rol,
      confirmed: user.confirmed,
    };
  }

  private async limit(key: string, max: number): Promise<void> {
    const { allowed, retryAfterSeconds } = await this.limiter.hit(key, max, this.policy.attemptWindowSeconds);
    if (!allowed) {
      const message = tooManyAttemptsMessage(retryAfterSeconds);
      throw new HttpError(429, message, [{ message }]);
    }
  }
}

function confirmationEvent(
  user: { id: string; name: string; email: string },
  token: string,
  expiresAt: Date,
) {
  return createEnvelope(
    confirmationRequested,
    { userId: user.id, name: user.name, email: user.email, token, expiresAt: expiresAt.toISOString() },
    correlationIdOrNew(),
  );
}
