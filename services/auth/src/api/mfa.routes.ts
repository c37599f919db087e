import type { Request } from 'express';
import {
  mfaConfirmBody,
  mfaEnrolBody,
  mfaEnrolConfirmBody,
  mfaSignInBody,
  type MfaConfirmResponse,
} from '@crm/contracts';
import { callerOf, validate, validated, type RouteHandlers } from '@crm/server-kit';
import type { AuditTrail } from '@crm/server-kit/service';
import type { MfaService } from '../domain/mfa.service';
import type { User } from '../domain/user';
import { signInMetrics, type SignInMetrics } from './sign-in-metrics';
import { recordSignIn } from './sign-in-trail';

/**
 * The second factor (docs/product/rights-and-access-trail.md#second-factor). Signed in: `/auth/mfa/setup` and
 * `/auth/mfa/confirm`. During a sign-in: `/auth/signIn/mfa` completes it with a code;
 * `/auth/signIn/mfa/setup` and `/auth/signIn/mfa/confirm` walk a person whose role must enrol through it
 * (they have no session yet: the sign-in's `mfaToken` names the account). Sign-ins and enrolments go to the
 * access trail.
 */
export function mfaHandlers(mfa: MfaService, trail: AuditTrail, counted: SignInMetrics = signInMetrics()) {
  const enrolled = (req: Request, user: User) =>
    trail.recordRequest(req, {
      action: 'auth.2fa.enrol',
      resource: 'account',
      resourceId: user.id,
      actor: { id: user.id, rol: user.rol },
    });

  return {
    'POST /auth/signIn/mfa': [
      validate('body', mfaSignInBody),
      async (req, res) => {
        const { mfaToken, code } = validated(res, 'body', mfaSignInBody);
        const target = await mfa.challengedAccount(mfaToken);
        try {
          const session = await mfa.signIn(mfaToken, code);
          await recordSignIn(trail, req, session);
          res.json(session);
        } catch (error) {
          counted.secondFactorFailed(error);
          await trail.recordRequest(req, {
            action: 'auth.2fa.verify',
            resource: 'account',
            ...(target ? { resourceId: target } : {}),
            outcome: 'failure',
          });
          throw error;
        }
      },
    ],
    'POST /auth/signIn/mfa/setup': [
      validate('body', mfaEnrolBody),
      async (_req, res) => {
        res.json(await mfa.setup(await mfa.enrollingUser(validated(res, 'body', mfaEnrolBody).mfaToken)));
      },
    ],
    'POST /auth/signIn/mfa/confirm': [
      validate('body', mfaEnrolConfirmBody),
      async (req, res) => {
        const { mfaToken, code } = validated(res, 'body', mfaEnrolConfirmBody);
        const { recoveryCodes, user } = await mfa.confirm(await mfa.enrollingUser(mfaToken), code, mfaToken);
        await enrolled(req, user);
        const body: MfaConfirmResponse = { recoveryCodes, ...(await mfa.sessionFor(user)) };
        res.json(body);
      },
    ],
    'POST /auth/mfa/setup': async (req, res) => {
      res.json(await mfa.setup(callerOf(req).id));
    },
    'POST /auth/mfa/confirm': [
      validate('body', mfaConfirmBody),
      async (req, res) => {
        const { recoveryCodes, user } = await mfa.confirm(
          callerOf(req).id,
          validated(res, 'body', mfaConfirmBody).code,
        );
        await enrolled(req, user);
        const body: MfaConfirmResponse = { recoveryCodes };
        res.json(body);
      },
    ],
  } satisfies Partial<RouteHandlers<'auth'>>;
}
