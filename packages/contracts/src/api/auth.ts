import type { Paged } from './paging';
import { z } from 'zod';
import type { Role } from '../roles';
import { emailField, kioskCodeField, nameField, objectIdField, passwordField, phoneField } from './fields';

export const signInBody = z.object({
  email: emailField,
  password: z
    .string({ error: 'La contraseña es obligatoria' })
    .min(1, 'La contraseña es obligatoria')
    .max(128),
});

export const signUpBody = z.object({
  name: nameField,
  phone: phoneField,
  email: emailField,
  password: passwordField,
});

export const forgotPasswordBody = z.object({ name: nameField, email: emailField });
/** `POST /auth/resendConfirmation`: answers "Email sent" whatever the address (no account probing). */
export const resendConfirmationBody = z.object({ email: emailField });
export const resetPasswordBody = z.object({ password: passwordField });
export const tokenParam = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, 'Token no válido') });

/**
 * `POST /users/onboarding` (the kiosk): `create` a patient (no code: there is no account yet), or
 * `update` an existing one, which needs `code`, the one-time code e-mailed to the account
 * (docs/product/kiosk.md#proof), and fills only the fields the account does not have yet.
 */
export const onboardingBody = z.object({
  email: emailField,
  name: nameField.optional(),
  phone: phoneField.optional(),
  operation: z.enum(['create', 'update']),
  code: kioskCodeField.optional(),
});

/** `POST /users/onboarding/code`: e-mail a one-time code to the account (the same answer for any address). */
export const onboardingCodeBody = z.object({ email: emailField });

/**
 * `POST /users/onboarding/verify`: prove the person at the kiosk holds the account, with its
 * e-mailed one-time code or the booking code of its appointment. The kiosk names the account by
 * its e-mail; the appointments service, checking a code the kiosk passed on, by its id.
 */
export const onboardingVerifyBody = z
  .object({ email: emailField.optional(), pacientId: objectIdField.optional(), code: kioskCodeField })
  .refine((body) => (body.email === undefined) !== (body.pacientId === undefined), {
    message: 'Indique el correo electrónico',
    path: ['email'],
  });

/** `POST /users/onboarding/code` answer (202), the same whether or not the address has an account. */
export interface OnboardingCodeSent {
  message: string;
}

/** The fields of a patient the kiosk may fill in (only when the account lacks them). */
export type OnboardingField = 'name' | 'phone';

/** `POST /users/onboarding/verify` answer: the account the code proves, and what it lacks. */
export interface OnboardingProof {
  pacientId: string;
  missing: OnboardingField[];
  /**
   * Only in the answer to the `pacientId` form: the appointments service, which checks a code the
   * kiosk passed on, keeps the patient in its read model (the kiosk itself asks by e-mail).
   */
  patient?: { id: string; name: string; email: string; phone?: string };
}

/**
 * `POST /users/onboarding` answer. A `create` also carries `code`: a one-time code of the new
 * account, the kiosk's proof for booking and checking in the person it has just registered.
 */
export interface OnboardingAnswer {
  data: UserView;
  code?: string;
}

export const fetchByEmailQuery = z.object({ email: emailField });

export interface SignInResponse {
  id: string;
  sessiontoken: string;
  rol: Role;
  /** Whether the e-mail address was confirmed; unconfirmed patients may sign in (the area asks them to confirm). */
  confirmed: boolean;
}

/** A person as the other services and the front ends see them. `_id` and `id` are the same value. */
export interface UserView {
  _id: string;
  id: string;
  name: string;
  email: string;
  phone?: string;
  rol: Role;
  confirmed: boolean;
  createdAt: string;
  /** The second factor is set up (`GET /auth/currentUser` says it, for the person's own account). */
  mfaEnabled?: boolean;
}

export type UsersPage = Paged & { users: UserView[] };
export type PacientsPage = Paged & { pacients: UserView[] };

/** The staff roles an admin can give (the kiosk's service account is a deployment secret, not a person). */
const INVITABLE_STAFF_ROLES = ['DOCTOR', 'ADMIN'] as const;
export type StaffRole = (typeof INVITABLE_STAFF_ROLES)[number];

/** `POST /users/staff`: an admin invites a doctor or admin, who sets a password through the e-mailed link. */
export const staffInvitationBody = z.object({
  name: nameField,
  email: emailField,
  rol: z.enum(INVITABLE_STAFF_ROLES, { error: 'El rol debe ser DOCTOR o ADMIN' }),
});

/** A staff account as the admin's "Personal" page shows it. */
export interface StaffView extends UserView {
  disabled: boolean;
  /** The second factor is set up. */
  mfaEnabled: boolean;
  /** The invitation has not been used yet (no password set). */
  invited: boolean;
}

/**
 * `GET /users/staff/names` (DOCTOR, ADMIN): who is who among doctors and admins, names only (no
 * e-mail, no phone, no kiosk account), e.g. to say who holds a room reservation.
 */
export interface StaffNames {
  staff: Array<{ id: string; name: string; rol: 'DOCTOR' | 'ADMIN' }>;
}

export interface StaffList {
  staff: StaffView[];
}

/**
 * `POST /auth/signIn` when a second factor is due: no session yet, but a short-lived `mfaToken`
 * for `POST /auth/signIn/mfa` (enrolled), or for `POST /auth/mfa/setup` and `/auth/mfa/confirm`
 * when the role must enrol first (`mfaSetupRequired`).
 */
export interface MfaChallengeResponse {
  mfaRequired: true;
  mfaToken: string;
  mfaSetupRequired?: true;
}

export type SignInAnswer = SignInResponse | MfaChallengeResponse;

const MFA_CODE_INVALID = 'Introduzca el código de 6 cifras de su aplicación o un código de recuperación';
/** A 6-digit TOTP code, or one of the recovery codes (`xxxxx-xxxxx`). */
export const mfaCodeField = z
  .string({ error: MFA_CODE_INVALID })
  .trim()
  .regex(/^(\d{6}|[a-z0-9]{5}-?[a-z0-9]{5})$/i, MFA_CODE_INVALID);
const mfaTokenField = z
  .string({ error: 'Falta el código de la sesión' })
  .regex(/^[A-Za-z0-9_-]{32,64}$/, 'Código de sesión no válido');

/** `POST /auth/signIn/mfa`. */
export const mfaSignInBody = z.object({ mfaToken: mfaTokenField, code: mfaCodeField });
/** `POST /auth/mfa/confirm` (signed in): the first code from the app proves the secret was stored. */
export const mfaConfirmBody = z.object({
  code: z
    .string({ error: 'Introduzca el código de 6 cifras de su aplicación' })
    .trim()
    .regex(/^\d{6}$/, 'Introduzca el código de 6 cifras de su aplicación'),
});
/** `POST /auth/signIn/mfa/setup`: the enrolment a sign-in asked for (`mfaSetupRequired`). */
export const mfaEnrolBody = z.object({ mfaToken: mfaTokenField });
/** `POST /auth/signIn/mfa/confirm`: its first code; answers the recovery codes and the session. */
export const mfaEnrolConfirmBody = mfaConfirmBody.extend({ mfaToken: mfaTokenField });

export interface MfaSetupResponse {
  secret: string;
  otpauthUrl: string;
  qrDataUrl: string;
}

/** The 10 single-use recovery codes (shown once); with the session when enrolment was part of a sign-in. */
export type MfaConfirmResponse = { recoveryCodes: string[] } & Partial<SignInResponse>;

/** `DELETE /users/me`: the patient confirms the erasure of their account with their password. */
export const deleteAccountBody = z.object({
  password: z
    .string({ error: 'La contraseña es obligatoria' })
    .min(1, 'La contraseña es obligatoria')
    .max(128),
});

/** `GET /users/me/export`: JSON by default, or a readable PDF. */
export const personalDataExportQuery = z.object({ format: z.enum(['json', 'pdf']).default('json') });

/** Everything the centre holds about the patient (GDPR art. 15 and 20), as `GET /users/me/export` gives it. */
export interface PersonalDataExport {
  exportedAt: string;
  profile: UserView;
  appointments: Array<{
    id: string;
    date: string;
    status: string;
    createdAt?: string;
    refundable?: boolean;
  }>;
  records: Array<{
    id: string;
    date: string;
    doctor: string;
    updatedAt: string;
    fields: Array<{ label: string; value: string }>;
  }>;
}
