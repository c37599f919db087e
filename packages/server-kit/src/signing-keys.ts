import { createHash, createPrivateKey, createPublicKey, generateKeyPair, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';

/**
 * Session tokens are signed by the auth service alone, with RSA (RS256) keys named by `kid`; every
 * other deployable holds public keys only. RS256 rather than EdDSA because jsonwebtoken, which the
 * whole product uses, has no EdDSA; RSA verification is also the cheaper of the two.
 */
export const TOKEN_ALGORITHM = 'RS256' as const;

/** Where the auth service publishes its public keys (service path; `/api/v1` in front at the gateway). */
export const JWKS_PATH = '/auth/.well-known/jwks.json';

/** 3072 bits (128-bit strength); keys shorter than 2048 bits are refused when read. */
const MODULUS_BITS = 3072;
const MIN_MODULUS_BITS = 2048;

/** One public key of a JSON Web Key Set, as the auth service publishes it. */
export interface PublicJwk {
  kty: 'RSA';
  n: string;
  e: string;
  kid: string;
  alg: typeof TOKEN_ALGORITHM;
  use: 'sig';
}

export interface JwksDocument {
  keys: PublicJwk[];
}

/** A key pair of the signer: `kid` is the RFC 7638 thumbprint of the public key. */
export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
}

/** RFC 7638 thumbprint (SHA-256 of the canonical public JWK), so a key's name follows from the key. */
export function keyIdOf(publicKey: KeyObject): string {
  const { e, n } = publicKey.export({ format: 'jwk' });
  return createHash('sha256')
    .update(JSON.stringify({ e, kty: 'RSA', n }))
    .digest('base64url');
}

export function publicJwkOf(publicKey: KeyObject): PublicJwk {
  const { e, n } = publicKey.export({ format: 'jwk' });
  return { kty: 'RSA', n: n!, e: e!, kid: keyIdOf(publicKey), alg: TOKEN_ALGORITHM, use: 'sig' };
}

function assertStrongRsa(key: KeyObject): void {
  if (key.asymmetricKeyType !== 'rsa' || (key.asymmetricKeyDetails?.modulusLength ?? 0) < MIN_MODULUS_BITS)
    throw new Error(`signing keys must be RSA keys of at least ${MIN_MODULUS_BITS} bits`);
}

/**
 * A signing key from its private key (PEM, PKCS8 or PKCS1). Line breaks may be written `\n`, as
 * one-line environment files and secret stores often keep them.
 */
export function signingKeyFromPem(pem: string): SigningKey {
  const privateKey = createPrivateKey(pem.includes('\\n') ? pem.replaceAll('\\n', '\n') : pem);
  assertStrongRsa(privateKey);
  const publicKey = createPublicKey(privateKey);
  return { kid: keyIdOf(publicKey), privateKey, publicKey };
}

export async function generateSigningKey(modulusLength = MODULUS_BITS): Promise<SigningKey> {
  const { privateKey, publicKey } = await promisify(generateKeyPair)('rsa', { modulusLength });
  return { kid: keyIdOf(publicKey), privateKey, publicKey };
}

export function privateKeyPem(key: SigningKey): string {
  return key.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
}

/**
 * The public keys of a JWKS document by `kid`. Only RSA signing keys for RS256 are taken; a key is
 * known by the thumbprint of its own material, whatever `kid` the document wrote next to it.
 */
export function publicKeysOf(document: unknown): Map<string, KeyObject> {
  const keys = new Map<string, KeyObject>();
  const list = (document as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(list)) throw new Error('not a JWKS document');
  for (const entry of list as Record<string, unknown>[]) {
    if (entry?.kty !== 'RSA' || (entry.alg ?? TOKEN_ALGORITHM) !== TOKEN_ALGORITHM) continue;
    if ((entry.use ?? 'sig') !== 'sig' || typeof entry.n !== 'string' || typeof entry.e !== 'string')
      continue;
    const key = createPublicKey({ key: { kty: 'RSA', n: entry.n, e: entry.e }, format: 'jwk' });
    assertStrongRsa(key);
    const kid = keyIdOf(key);
    if (entry.kid === kid) keys.set(kid, key);
  }
  return keys;
}
