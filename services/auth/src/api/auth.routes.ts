import { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import {
  forgotPasswordBody,
  nameField,
  phoneField,
  resendConfirmationBody,
  emailField,
  resetPasswordBody,
  signInBody,
  signUpBody,
  tokenParam,
} from '@crm/contracts';
import { callerOf, requireRole, validate, validated } from '@crm/server-kit';
import type { AccountService } from '../domain/account.service';
import { newPasswordField } from '../domain/password-policy';

const staffCreatePatientBody = z.object({
  name: nameField,
  phone: phoneField,
  email: emailField,
  /** Optional: without it the patient is invited by e-mail to set one. */
  password: z.preprocess(
    (value) => (value === '' || value === null ? undefined : value),
    newPasswordField.optional(),
  ),
});

/** The contracts' bodies, with the common-password check on the password being set. */
const signUpWithNewPassword = signUpBody.extend({ password: newPasswordField });
const resetWithNewPassword = resetPasswordBody.extend({ password: newPasswordField });

/**
 * `/auth/*` calls of SPEC §7, with the payloads and answers the front ends expect. Answers a person
 * may read are Spanish; "Authorized", "Email sent", "Password reset", "Account confirmed" and
 * "Account already activated" are the spec's contract strings that the front ends compare against.
 */
export function authRoutes(accounts: AccountService, requireUser: RequestHandler): Router {
  const router = Router();

  router.get('/auth/currentUser', requireUser, async (req, res) => {
    const profile = await accounts.currentUser(callerOf(req));
    res.json({
      message: 'Authorized',
      id: profile.id,
      rol: profile.rol,
      confirmed: profile.confirmed,
      profile,
    });
  });

  router.post('/auth/signIn', validate('body', signInBody), async (req, res) => {
    const { email, password } = validated(res, 'body', signInBody);
    res.json(await accounts.signIn(email, password, req.ip ?? 'unknown'));
  });

  router.post('/auth/signUp', validate('body', signUpWithNewPassword), async (_req, res) => {
    const session = await accounts.signUp(validated(res, 'body', signUpWithNewPassword));
    res.status(201).json({
      message: 'Usuario registrado: revise su correo electrónico para confirmar la cuenta',
      ...session,
    });
  });

  router.post('/auth/forgotPassword', validate('body', forgotPasswordBody), async (_req, res) => {
    await accounts.forgotPassword(validated(res, 'body', forgotPasswordBody).email);
    res.json({ message: 'Email sent' });
  });

  router.post('/auth/resendConfirmation', validate('body', resendConfirmationBody), async (req, res) => {
    await accounts.resendConfirmation(
      validated(res, 'body', resendConfirmationBody).email,
      req.ip ?? 'unknown',
    );
    res.json({ message: 'Email sent' });
  });

  router.post(
    '/auth/resetPassword/:token',
    validate('params', tokenParam),
    validate('body', resetWithNewPassword),
    async (_req, res) => {
      const { email } = await accounts.resetPassword(
        validated(res, 'params', tokenParam).token,
        validated(res, 'body', resetWithNewPassword).password,
      );
      // The page signs in with it and the new password, and opens the person's area at once.
      res.json({ message: 'Password reset', email });
    },
  );

  router.get('/auth/confirmAccount/:token', validate('params', tokenParam), async (_req, res) => {
    const outcome = await accounts.confirmAccount(validated(res, 'params', tokenParam).token);
    res.json({ message: outcome === 'confirmed' ? 'Account confirmed' : 'Account already activated' });
  });

  router.post('/auth/signOut', requireUser, async (req, res) => {
    await accounts.signOut(callerOf(req));
    res.json({ message: 'Sesión cerrada' });
  });

  router.post(
    '/auth/doctor/patient/create',
    requireUser,
    requireRole('DOCTOR', 'ADMIN'),
    validate('body', staffCreatePatientBody),
    async (_req, res) => {
      const patient = await accounts.createPatientByStaff(validated(res, 'body', staffCreatePatientBody));
      res.status(201).json({ message: 'Paciente registrado', ...patient });
    },
  );

  return router;
}
