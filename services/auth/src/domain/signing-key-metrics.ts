import type { DeployableMetrics } from '@crm/server-kit';
import type { SigningKeyRing } from './signing-key-ring';

/**
 * `crm_auth_signing_key_age_seconds` (the current token signing key's age, from the database) and
 * `crm_auth_signing_key_rotation_seconds` (the scheduled rotation's period; 0 when keys do not rotate
 * by themselves, `JWT_KEY_ROTATION_DAYS=0` or an operator's `JWT_SIGNING_KEY`). An age past the period
 * means the rotation stopped; an operator's key only ages, and is alerted on at 90 days.
 */
export function signingKeyMetrics(
  metrics: DeployableMetrics,
  ring: SigningKeyRing,
  rotationDays: number,
): void {
  metrics.gauge(
    'crm_auth_signing_key_age_seconds',
    'Age of the key new session tokens are signed with',
    [],
    (gauge) => {
      const age = ring.currentKeyAgeSeconds();
      if (age !== undefined) gauge.set(age);
    },
  );
  metrics
    .gauge('crm_auth_signing_key_rotation_seconds', 'Period of the scheduled signing key rotation (0: none)')
    .set(rotationDays * 86_400);
}
