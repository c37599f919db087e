import { z } from 'zod';
import type { Role } from '../roles';
import { emailField, nameField, passwordField, phoneField } from './fields';

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

export const onboardingBody = z.object({
  email: emailField,
  name: nameField.optional(),
  phone: phoneField.optional(),
  operation: z.enum(['create', 'update']),
});

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
}

export interface Paged {
  total: number;
  page: number;
  totalPages: number;
  limit: number;
}

export type UsersPage = Paged & { users: UserView[] };
export type PacientsPage = Paged & { pacients: UserView[] };
