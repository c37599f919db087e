import {
  confirmationRequested,
  passwordResetRequested,
  userRegistered,
  userUpdated,
  type EventEnvelope,
  type Role,
  type SignInResponse,
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
  attemptWindowSeconds: number;
  confirmationTtlMs: number;
  resetTtlMs: number;
}

export interface PersonInput {
  name: string;
  email: string;
  phone?: string;
  password?: string;
}

type Channel = 'signup' | 'staff' | 'kiosk' | 'bootstrap';

const INVALID_CREDENTIALS = 'Correo electrónico o contraseña incorrectos';
const TOO_MANY_ATTEMPTS = 'Demasiados intentos. Inténtalo de nuevo más tarde.';

/** The account rules of SPEC §3–§8: sign-up, sign-in, confirmation, password reset, staff and kiosk. */
export class AccountService {
  constructor(
    private readonly users: UserRepository,
    private readonly revocations: SessionRevocations,
    private readonly tokens: SessionTokens,
    private readonly limiter: AttemptLimiter,
    private readonly policy: AccountPolicy,
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
        createEnvelope(
          confirmationRequested,
          {
            userId: id,
            name: input.name,
            email: input.email,
            token: confirmation.token,
            expiresAt: expiresAt.toISOString(),
          },
          correlationIdOrNew(),
        ),
      ],
    );
    return this.sessionFor(user);
  }

  async signIn(email: string, password: string, clientKey: string): Promise<SignInResponse> {
    await this.limit(`signin:${email}`, this.policy.signInMaxAttempts);
    await this.limit(`signin-client:${clientKey}`, this.policy.signInMaxAttemptsPerClient);
    const user = await this.users.findByEmail(email);
    const valid = await verifyPassword(user?.passwordHash, password);
    if (!user || !valid) throw fieldError(401, 'password', INVALID_CREDENTIALS);
    if (!user.confirmed) {
      throw fieldError(
        403,
        'email',
        'Email sin confirmar: revisa tu correo electrónico para activar la cuenta',
      );
    }
    // Right after a password reset, wait for the second from which sessions count again (< 1 s),
    // or the new session would carry the same whole-second `iat` as the ended ones.
    if (user.sessionsValidAfter) await waitUntil(nextWholeSecond(user.sessionsValidAfter));
    return this.sessionFor(user);
  }

  async currentUser(caller: AuthenticatedUser): Promise<UserView> {
    const user = await this.users.findById(caller.id);
    if (!user) throw notFound('User not found');
    return toUserView(user);
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

  async resetPassword(token: string, password: string): Promise<void> {
    const now = new Date();
    const user = await this.users.resetPassword(hashToken(token), await hashPassword(password), now);
    if (!user)
      throw badRequest('Invalid or expired token', [{ message: 'El enlace no es válido o ha caducado' }]);
    // Token `iat` is in whole seconds: a session issued earlier in this same second must end too.
    await this.revocations.invalidateSessionsBefore(user.id, nextWholeSecond(now));
  }

  async confirmAccount(token: string): Promise<'confirmed' | 'already'> {
    const hash = hashToken(token);
    if (await this.users.confirm(hash, new Date())) return 'confirmed';
    const user = await this.users.findByConfirmationTokenHash(hash);
    if (user?.confirmed) return 'already';
    throw badRequest('Invalid or expired token', [{ message: 'El enlace no es válido o ha caducado' }]);
  }

  /** Staff register a patient they have in front of them: no e-mail confirmation needed. */
  async createPatientByStaff(input: Required<PersonInput>): Promise<UserView> {
    const user = await this.register({ ...input, rol: 'PACIENT', confirmed: true }, 'staff');
    return toUserView(user);
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
      const user = await this.register(
        { name: input.name, email: input.email, phone: input.phone, rol: 'PACIENT', confirmed: false },
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
    if (!updated) throw notFound('Patient not found');
    return toUserView(updated);
  }

  /** Only patients can be looked up: the kiosk must never reveal or touch staff accounts. */
  async findPatientByEmail(email: string): Promise<User> {
    const user = await this.users.findByEmail(email);
    if (!user || user.rol !== 'PACIENT') throw notFound('Patient not found');
    return user;
  }

  async findPatientById(id: string): Promise<User> {
    const user = await this.users.findById(id);
    if (!user || user.rol !== 'PACIENT') throw notFound('Patient not found');
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
    if (!user) return false;
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

  private async register(
    person: PersonInput & Omit<NewUser, 'name' | 'email' | 'passwordHash'>,
    channel: Channel,
    extraEvents: (id: string) => EventEnvelope[] = () => [],
  ): Promise<User> {
    const { password, ...fields } = person;
    const passwordHash = password ? await hashPassword(password) : undefined;
    try {
      return await this.users.create({ ...fields, ...(passwordHash ? { passwordHash } : {}) }, (id) => [
        createEnvelope(userRegistered, { ...toSnapshot({ ...fields, id }), channel }, correlationIdOrNew()),
        ...extraEvents(id),
      ]);
    } catch (error) {
      if (error instanceof EmailTakenError) {
        throw conflict('Email already registered', [
          { field: 'email', message: 'Email: ya existe una cuenta con este correo electrónico' },
        ]);
      }
      throw error;
    }
  }

  private sessionFor(user: User): SignInResponse {
    return {
      id: user.id,
      sessiontoken: this.tokens.sign({ id: user.id, rol: user.rol }).token,
      rol: user.rol,
    };
  }

  private async limit(key: string, max: number): Promise<void> {
    const { allowed, retryAfterSeconds } = await this.limiter.hit(key, max, this.policy.attemptWindowSeconds);
    if (!allowed)
      throw new HttpError(429, TOO_MANY_ATTEMPTS, [
        { message: `${TOO_MANY_ATTEMPTS} (${retryAfterSeconds} s)` },
      ]);
  }
}

/**
 * Sessions ended at `at` end every token whose whole-second `iat` is not after it: the first second
 * in which new sessions count again is the next whole second (`at` itself when it is one).
 */
export function nextWholeSecond(at: Date): Date {
  return new Date(Math.ceil(at.getTime() / 1000) * 1000);
}

async function waitUntil(instant: Date): Promise<void> {
  const wait = instant.getTime() - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}
