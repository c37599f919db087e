import { HttpError, type DeployableMetrics } from '@crm/server-kit';

/**
 * `crm_auth_signin_failures_total` (a wrong e-mail or password) and
 * `crm_auth_second_factor_failures_total` (a refused code or challenge at the second step): a rise
 * is someone guessing (docs/operations.md, "Metrics and alerts"). Without metrics, nothing counted.
 */
export function signInMetrics(metrics?: DeployableMetrics) {
  const passwords = metrics?.counter(
    'crm_auth_signin_failures_total',
    'Sign-ins refused for a wrong e-mail or password',
  );
  const codes = metrics?.counter(
    'crm_auth_second_factor_failures_total',
    'Second-factor sign-in steps refused (wrong or used code, expired challenge, locked factor)',
  );
  /** A refusal of the caller's making (4xx), not an outage of ours. */
  const refused = (error: unknown) => error instanceof HttpError && error.status < 500;
  return {
    signInFailed: (error: unknown) => refused(error) && passwords?.inc(),
    secondFactorFailed: (error: unknown) => refused(error) && codes?.inc(),
  };
}

export type SignInMetrics = ReturnType<typeof signInMetrics>;
