import { z } from 'zod';
import { ROLES } from '../roles';
import { defineEvent } from './envelope';

const userSnapshot = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  phone: z.string().optional(),
  rol: z.enum(ROLES),
  /**
   * Whether the person has a password, i.e. can sign in to their area (kiosk and staff-registered
   * patients without one get an invitation instead). Absent in events written before it existed.
   */
  canSignIn: z.boolean().optional(),
  /** Whether the e-mail address is confirmed (absent in events written before it existed). */
  confirmed: z.boolean().optional(),
});

/** A person was created: by public sign-up, by staff, by the kiosk, or from the bootstrap settings. */
export const userRegistered = defineEvent(
  'auth.user.registered.v1',
  userSnapshot.extend({ channel: z.enum(['signup', 'staff', 'kiosk', 'bootstrap']) }),
  {
    publishers: ['auth'],
    consumers: ['appointments', 'audit', 'notifications'],
  },
);

export const userUpdated = defineEvent('auth.user.updated.v1', userSnapshot, {
  publishers: ['auth'],
  consumers: ['appointments', 'audit', 'notifications'],
});

/**
 * E-mail requests carry the one-time token because the e-mail must contain the link; the database
 * keeps only its hash, and the token is worthless once used or expired.
 */
const tokenMail = z.object({
  userId: z.string(),
  name: z.string(),
  email: z.string(),
  token: z.string(),
  expiresAt: z.iso.datetime(),
});

export const confirmationRequested = defineEvent('auth.confirmation.requested.v1', tokenMail, {
  publishers: ['auth'],
  consumers: ['notifications'],
});
export const passwordResetRequested = defineEvent('auth.passwordReset.requested.v1', tokenMail, {
  publishers: ['auth'],
  consumers: ['notifications'],
});

/**
 * The kiosk asked for a one-time code for a patient's account (docs/product/kiosk.md#proof): the
 * e-mail carries the 6 digits in `token` (so the loggers redact it like every token); the auth
 * service keeps only its hash, and the code dies after its few minutes or its few wrong tries.
 */
export const onboardingCodeRequested = defineEvent('auth.onboardingCode.requested.v1', tokenMail, {
  publishers: ['auth'],
  consumers: ['notifications'],
});

/**
 * A patient registered by staff or at the kiosk without a password is invited to set one: the link
 * is the reset-password page (`/reset-password/<token>`), whose success also confirms the account.
 * Like the reset request, it carries the one-time token (field `token`, redacted by the loggers).
 */
export const userInvited = defineEvent(
  'auth.user.invited.v1',
  tokenMail.extend({
    /** `staff`/`kiosk`: a patient registered there; `staffAccount`: a doctor or admin an admin invited. */
    channel: z.enum(['staff', 'kiosk', 'staffAccount']),
    rol: z.enum(ROLES).optional(),
    /** The invited role must set up a second factor at the first sign-in (auth's `MFA_REQUIRED_ROLES`). */
    mfaRequired: z.boolean().optional(),
  }),
  {
    publishers: ['auth'],
    consumers: ['notifications'],
  },
);

/**
 * Sessions ended (docs/product/rights-and-access-trail.md#sessions): one token signed out (`tokenId`), or
 * every token of a user issued before `validAfter` (unix seconds; a password reset, a disabled account).
 * Every service that verifies tokens keeps these facts in its own database, so it refuses ended sessions by
 * itself, also while Redis (the gateway's fast path) is down. `until`: no token they concern is valid after
 * it.
 */
export const sessionEnded = defineEvent(
  'auth.session.ended.v1',
  z.union([
    z.object({ tokenId: z.string().min(1), until: z.iso.datetime() }),
    z.object({ userId: z.string().min(1), validAfter: z.number().int().min(0), until: z.iso.datetime() }),
  ]),
  {
    publishers: ['auth'],
    consumers: ['appointments', 'audit', 'auth', 'config', 'payments', 'records', 'reporting', 'rooms'],
  },
);

/**
 * A patient erased their account (`DELETE /users/me`, docs/product/rights-and-access-trail.md#erasure): the
 * auth service has removed the contact data already; each service pseudonymises what it keeps about `userId`
 * (clinical records stay for the legal retention period) and drops what it no longer needs.
 */
/** What every service keeps of an erased patient instead of their name (records, appointments, auth). */
export const ERASED_PATIENT_NAME = 'Paciente eliminado';
/** The address an erased account keeps: unique per account, and nobody can receive mail there (RFC 2606). */
export const erasedEmail = (userId: string) => `erased-${userId}@erased.invalid`;
export const isErasedAddress = (address: string) => address.toLowerCase().endsWith('@erased.invalid');

export const userErased = defineEvent(
  'auth.user.erased.v1',
  z.object({ userId: z.string(), erasedAt: z.iso.datetime() }),
  {
    publishers: ['auth'],
    consumers: ['appointments', 'records'],
  },
);

/**
 * Too many wrong second-factor codes in a row: the account's factor is locked until `lockedUntil`
 * (the password is not), and its holder is told by e-mail, since someone else may know the password.
 */
export const secondFactorLocked = defineEvent(
  'auth.mfa.locked.v1',
  z.object({
    userId: z.string(),
    name: z.string(),
    email: z.string(),
    failures: z.number().int().positive(),
    lockedUntil: z.iso.datetime(),
  }),
  {
    publishers: ['auth'],
    consumers: ['notifications'],
  },
);
