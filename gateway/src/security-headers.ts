import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';
import { isHttps } from './client-address';

/**
 * Helmet configured for the React single-page apps served from this same origin (shell and
 * federated remotes): scripts, styles, fonts, API calls only from 'self'; images also as data: URLs.
 * 'unsafe-inline' styles are allowed because the dialog and cookie-consent libraries and React's
 * federated remotes inject <style> elements at run time; inline SCRIPTS stay forbidden.
 * HSTS and upgrade-insecure-requests are left out here: they are only correct over https (see below).
 */
export const helmetMiddleware = helmet({
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'self'"],
      scriptSrcAttr: ["'none'"],
    },
  },
  strictTransportSecurity: false,
});

/**
 * The headers helmet sets, captured once. They do not depend on the request, so the proxy path sets
 * them from this list instead of running helmet's middleware chain for every request.
 */
function captureHelmetHeaders(): ReadonlyArray<readonly [string, string]> {
  const headers = new Map<string, string>();
  const fakeResponse = {
    setHeader: (name: string, value: unknown) => headers.set(name, String(value)),
    removeHeader: (name: string) => headers.delete(name),
    getHeader: (name: string) => headers.get(name),
  };
  let ranSynchronously = false;
  helmetMiddleware({} as IncomingMessage, fakeResponse as unknown as ServerResponse, () => {
    ranSynchronously = true;
  });
  if (!ranSynchronously || !headers.has('Content-Security-Policy')) {
    throw new Error('helmet headers could not be captured');
  }
  return [...headers.entries()];
}

/**
 * Browser features no page of ours uses are switched off for every document and frame, so an
 * injected script could not reach the camera, the microphone or the visitor's location either.
 */
const PERMISSIONS_POLICY =
  'accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=(), interest-cohort=()';

const STATIC_HEADERS = [...captureHelmetHeaders(), ['Permissions-Policy', PERMISSIONS_POLICY] as const];
const CSP = STATIC_HEADERS.find(([name]) => name === 'Content-Security-Policy')![1];

/**
 * The CSP of an HTML document whose own inline scripts (and only those) may run: their SHA-256
 * hashes join `script-src`. Everything else keeps the policy above, which allows no inline script.
 */
export function contentSecurityPolicyAllowing(
  scriptHashes: readonly string[],
  formTargets: readonly string[] = [],
): string {
  let policy = CSP;
  if (scriptHashes.length > 0) {
    const allowed = scriptHashes.map((hash) => `'sha256-${hash}'`).join(' ');
    policy = policy.replace(/(^|;)script-src ([^;]*)/, `$1script-src $2 ${allowed}`);
  }
  // The card gateway's payment page: the patient area posts the signed payment form to it.
  if (formTargets.length > 0)
    policy = policy.replace(/(^|;)form-action ([^;]*)/, `$1form-action $2 ${formTargets.join(' ')}`);
  return policy;
}

/** Two years, subdomains: only ever sent on https, where it cannot lock out a plain-http setup. */
const HSTS = 'max-age=63072000; includeSubDomains';

export function applySecurityHeaders(req: IncomingMessage, res: ServerResponse, trustedHops: number): void {
  for (const [name, value] of STATIC_HEADERS) res.setHeader(name, value);
  if (isHttps(req, trustedHops)) res.setHeader('Strict-Transport-Security', HSTS);
}
