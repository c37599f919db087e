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
import { callerOf, HttpError, validate, validated, type RouteHandlers } from '@crm/server-kit';
import type { AuditTrail } from '@crm/server-kit/service';
import type { AccountService } from '../domain/account.service';
import { newPasswordField } from '../domain/password-policy';
import { signInMetrics, type SignInMetrics } from './sign-in-metrics';
import { recordSignIn } from './sign-in-trail';

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
 * `/auth/*` calls, with the payloads and answers the front ends expect (roles from the
 * route table). Answers a person may read are Spanish; "Authorized", "Email sent", "Password
 * reset", "Account confirmed" and "Account already activated" are contract strings that
 * the front ends compare against. Sign-ins (success and failure), sign-outs and patients created by
 * staff are recorded in the access trail.
 */
export function authHandlers(
  accounts: AccountService,
  trail: AuditTrail,
  counted: SignInMetrics = signInMetrics(),
) {
  return {
    'GET /auth/currentUser': async (req, res) => {
      const profile = await accounts.currentUser(callerOf(req));
      res.json({
        message: 'Authorized',
        id: profile.id,
        rol: profile.rol,
        confirmed: profile.confirmed,
        profile,
      });
    },
    'POST /auth/signIn': [
      validate('body', signInBody),
      async (req, res) => {
        const { email, password } = validated(res, 'body', signInBody);
        let session: Awaited<ReturnType<AccountService['signIn']>>;
        try {
          session = await accounts.signIn(email, password, req.ip ?? 'unknown');
        } catch (error) {
          // Who tried is unknown; the account they tried is recorded (when it exists), with the
          // address and request id, so the attempts against one account can be found.
          if (error instanceof HttpError && error.status === 401) {
            counted.signInFailed(error);
            const target = await accounts.accountIdOf(email);
            await trail.recordRequest(req, {
              action: 'auth.signin',
              resource: 'account',
              ...(target ? { resourceId: target } : {}),
              outcome: 'failure',
            });
          }
          throw error;
        }
        // With a second factor due, the sign-in is recorded once the code is (POST /auth/signIn/mfa).
        if ('id' in session) await recordSignIn(trail, req, session);
        res.json(session);
      },
    ],
    'POST /auth/signUp': [
      validate('body', signUpWithNewPassword),
      async (_req, res) => {
        const session = await accounts.signUp(validated(res, 'body', signUpWithNewPassword));
        res.status(201).json({
          message: 'Usuario registrado: revise su correo electrónico para confirmar la cuenta',
          ...session,
        });
      },
    ],
    'POST /auth/forgotPassword': [
      validate('body', forgotPasswordBody),
      async (_req, res) => {
        await accounts.forgotPassword(validated(res, 'body', forgotPasswordBody).email);
        res.json({ message: 'Email sent' });
      },
    ],
    'POST /auth/resendConfirmation': [
      validate('body', resendConfirmationBody),
      async (req, res) => {
        await accounts.resendConfirmation(
          validated(res, 'body', resendConfirmationBody).email,
          req.ip ?? 'unknown',
        );
        res.json({ message: 'Email sent' });
      },
    ],
    'POST /auth/resetPassword/:token': [
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
    ],
    'GET /auth/confirmAccount/:token': [
      validate('params', tokenParam),
      async (_req, res) => {
        const outcome = await accounts.confirmAccount(validated(res, 'params', tokenParam).token);
        res.json({ message: outcome === 'confirmed' ? 'Account confirmed' : 'Account already activated' });
      },
    ],
    'POST /auth/signOut': async (req, res) => {
      await accounts.signOut(callerOf(req));
      await trail.recordRequest(req, {
        action: 'auth.signout',
        resource: 'account',
        resourceId: callerOf(req).id,
      });
      res.json({ message: 'Sesión cerrada' });
    },
    'POST /auth/doctor/patient/create': [
      validate('body', staffCreatePatientBody),
      async (req, res) => {
        const patient = await accounts.createPatientByStaff(validated(res, 'body', staffCreatePatientBody));
        await trail.recordRequest(req, {
          action: 'user.create',
          resource: 'user',
          resourceId: patient.id,
          patientIds: [patient.id],
        });
        res.status(201).json({ message: 'Paciente registrado', ...patient });
      },
    ],
  } satisfies Partial<RouteHandlers<'auth'>>;
}
