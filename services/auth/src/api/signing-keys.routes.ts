import type { RouteHandlers } from '@crm/server-kit';
import type { AuditTrail } from '@crm/server-kit/service';
import type { SigningKeyRing } from '../domain/signing-key-ring';

/**
 * The public keys every other deployable verifies session tokens with (JWKS, RFC 7517), and the
 * ADMIN's rotation of the signing key (nobody is signed out: the replaced key stays published until
 * the sessions it signed have expired). Caches may keep the document a minute; verifiers ask again
 * as soon as they meet a token naming a key they do not know.
 */
export function signingKeyHandlers(keys: SigningKeyRing, trail: AuditTrail) {
  return {
    'GET /auth/.well-known/jwks.json': (_req, res) => {
      res.set('Cache-Control', 'public, max-age=60');
      res.json(keys.jwks());
    },
    'POST /auth/signing-keys/rotate': async (req, res) => {
      const { kid } = await keys.rotate();
      await trail.recordRequest(req, {
        action: 'auth.signing-key.rotate',
        resource: 'signing-key',
        resourceId: kid,
      });
      res.json({ kid });
    },
  } satisfies Partial<RouteHandlers<'auth'>>;
}
