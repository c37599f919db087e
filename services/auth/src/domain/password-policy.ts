import { dictionary } from '@zxcvbn-ts/language-common';
import { z } from 'zod';
import { passwordField } from '@crm/contracts';

/**
 * New passwords (sign-up, reset, invitation, staff) must not be on a list of common and breached
 * passwords: zxcvbn-ts's list of ~49 000 (from breach corpora), offline, compared without case.
 * Sign-in is not checked: an old password keeps working until it is changed.
 */
const COMMON_PASSWORDS = new Set(dictionary['passwords-common'].map((password) => password.toLowerCase()));

export const COMMON_PASSWORD_MESSAGE =
  'Esta contraseña es muy común o aparece en filtraciones de datos; elija otra';

/**
 * The staff passwords the README, `.env.example`, docker compose and the dev overlay publish for
 * development: refused in production (scripts/lib/dev-env.test.ts keeps this list in step).
 */
export const PUBLISHED_PASSWORDS: readonly string[] = ['Admin1234!', 'Doctor1234!', 'Kiosk1234!'];

export const isCommonPassword = (password: string): boolean => COMMON_PASSWORDS.has(password.toLowerCase());

/** Compared without case, like the common list: `admin1234!` is as published as `Admin1234!`. */
const PUBLISHED_LOWER = new Set(PUBLISHED_PASSWORDS.map((password) => password.toLowerCase()));
export const isPublishedPassword = (password: string): boolean => PUBLISHED_LOWER.has(password.toLowerCase());

/** The contracts' password rules plus the list check, for every password that is being set. */
export const newPasswordField = passwordField.pipe(
  // Piped: a password already refused for its length gets one message, not two.
  z.string().refine((password) => !isCommonPassword(password), { message: COMMON_PASSWORD_MESSAGE }),
);
