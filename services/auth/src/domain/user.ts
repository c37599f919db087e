import type { EventEnvelope, Role, UserView } from '@crm/contracts';

export interface User {
  id: string;
  name: string;
  email: string;
  phone?: string;
  rol: Role;
  passwordHash?: string;
  confirmed: boolean;
  confirmationTokenHash?: string;
  confirmationExpiresAt?: Date;
  resetTokenHash?: string;
  resetExpiresAt?: Date;
  /** Tokens issued before this instant are no longer accepted (set by a password reset). */
  sessionsValidAfter?: Date;
  /** A staff account an admin disabled: no sign-in, no session. */
  disabled?: boolean;
  /** The authenticator secret (encrypted), once the first code confirmed it. */
  mfaSecret?: string;
  /** A secret set up but not confirmed yet (encrypted). */
  mfaPendingSecret?: string;
  /** SHA-256 of the single-use recovery codes. */
  mfaRecoveryHashes?: string[];
  createdAt: Date;
}

export type NewUser = Omit<User, 'id' | 'createdAt'>;

export type UserChanges = Partial<Omit<User, 'id' | 'createdAt'>>;

export class EmailTakenError extends Error {
  constructor() {
    super('Email already registered');
  }
}

export interface UserPageQuery {
  page: number;
  limit: number;
  search: string;
  roles?: Role[];
  /** Erased accounts ("Paciente eliminado") are left out unless asked for. */
  includeErased?: boolean;
}

/** Persistence the account rules need. Every write takes the events to publish with it (outbox). */
export interface UserRepository {
  /** `events` gets the new id, so the events describing the creation are written with it. */
  create(user: NewUser, events: (id: string) => EventEnvelope[]): Promise<User>;
  findById(id: string): Promise<User | undefined>;
  findByEmail(email: string): Promise<User | undefined>;
  findByConfirmationTokenHash(hash: string): Promise<User | undefined>;
  update(id: string, changes: UserChanges, events: EventEnvelope[]): Promise<User | undefined>;
  /** Marks the account confirmed if the token is valid and the account still unconfirmed. */
  confirm(
    tokenHash: string,
    now: Date,
    events?: (before: User) => EventEnvelope[],
  ): Promise<User | undefined>;
  /** Sets the new password if the reset token is valid, consuming it in the same write. */
  resetPassword(
    tokenHash: string,
    passwordHash: string,
    now: Date,
    events?: (before: User) => EventEnvelope[],
  ): Promise<User | undefined>;
  page(query: UserPageQuery): Promise<{ items: User[]; total: number }>;
  /**
   * Uses a single-use value (a second-factor code's time step, a recovery code) by inserting it
   * under a unique key; false when it was used before.
   */
  consumeOnce(key: string, at: Date): Promise<boolean>;
}

/** Signed-out tokens, remembered until they would have expired anyway. */
export interface SessionRevocations {
  revoke(tokenId: string, expiresAt: Date): Promise<void>;
  isRevoked(tokenId: string): Promise<boolean>;
  /** Tells the gateway that tokens of this user issued before `at` no longer count. */
  invalidateSessionsBefore(userId: string, at: Date): Promise<void>;
}

export function toUserView(user: User): UserView {
  return {
    _id: user.id,
    id: user.id,
    name: user.name,
    email: user.email,
    ...(user.phone ? { phone: user.phone } : {}),
    rol: user.rol,
    confirmed: user.confirmed,
    createdAt: user.createdAt.toISOString(),
  };
}

/**
 * What other services may know of a person (event payloads): no secrets; of the account state only
 * whether they can sign in (the e-mails must not send someone without a password to their area)
 * and whether the e-mail address is confirmed.
 */
export function toSnapshot(
  user: Pick<User, 'id' | 'name' | 'email' | 'phone' | 'rol' | 'passwordHash' | 'confirmed'>,
) {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    ...(user.phone ? { phone: user.phone } : {}),
    rol: user.rol,
    canSignIn: Boolean(user.passwordHash),
    // Appointments releases slots held by accounts left unconfirmed.
    confirmed: user.confirmed,
  };
}
