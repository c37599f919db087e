import { createSecretKey, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import {
  keyIdOf,
  privateKeyPem,
  publicJwkOf,
  signingKeyFromPem,
  StaticKeys,
  TokenService,
  TokenSigner,
  type SigningKey,
} from '@crm/server-kit';
import type { Role } from '@crm/contracts';
import jwt from 'jsonwebtoken';
import { uniqueId } from './names';

/** A fresh RSA key pair (2048 bits: the least the verifiers accept, and quick to make). */
export function newSigningKey(): SigningKey {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { kid: keyIdOf(publicKey), privateKey, publicKey };
}

/**
 * The tests' signing key, made once per test file (or given by `TEST_JWT_SIGNING_KEY`). Stacks give
 * it to the auth service as its operator key (`JWT_SIGNING_KEY`), so tokens minted here are the auth
 * service's own and every deployable learns the key from its JWKS; stacks without the auth service
 * trust it through `JWT_PUBLIC_KEYS`.
 */
export const TEST_SIGNING_KEY: SigningKey = process.env.TEST_JWT_SIGNING_KEY
  ? signingKeyFromPem(process.env.TEST_JWT_SIGNING_KEY)
  : newSigningKey();
export const TEST_SIGNING_KEY_PEM = privateKeyPem(TEST_SIGNING_KEY);
/** The JWKS document that trusts the test key only. */
export const TEST_JWKS = JSON.stringify({ keys: [publicJwkOf(TEST_SIGNING_KEY.publicKey)] });
/** Environment of a deployable that verifies test tokens without an auth service to ask. */
export const TEST_VERIFIER_ENV = { JWT_PUBLIC_KEYS: TEST_JWKS };

/** A verifier that trusts the test key (unit tests of code behind `requireAuth`). */
export const testTokens = (): TokenService => new TokenService(StaticKeys.fromJwks(TEST_JWKS));

/** A token and its claims (the `jti` a test signs out, say). */
export function mintSession(
  user: { id: string; rol: Role },
  ttlSeconds = 3600,
  key: SigningKey = TEST_SIGNING_KEY,
) {
  return new TokenSigner(() => key, ttlSeconds).sign(user);
}

export function mintToken(
  user: { id: string; rol: Role },
  ttlSeconds = 3600,
  key: SigningKey = TEST_SIGNING_KEY,
): string {
  return new TokenSigner(() => key, ttlSeconds).sign(user).token;
}

/** A caller whose user exists only in its token (enough for a service that does not look the user up). */
export function mintedCaller(rol: Role): { id: string; token: string } {
  const id = uniqueId();
  return { id, token: mintToken({ id, rol }) };
}

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const claimsOf = (user: { id: string; rol: Role }, jti: string) => {
  const now = Math.floor(Date.now() / 1000);
  return { sub: user.id, rol: user.rol, jti, iat: now, exp: now + 3600 };
};
/** The bytes of the public key as an HMAC secret (what the "algorithm confusion" attack signs with). */
const hs256 = (claims: object, secret: string, kid: string) =>
  jwt.sign(claims, createSecretKey(Buffer.from(secret)), { algorithm: 'HS256', keyid: kid });

/** Tokens a well-behaved server must refuse, for security tests. */
export const hostileTokens = {
  expired(user: { id: string; rol: Role }, key: SigningKey = TEST_SIGNING_KEY): string {
    const now = Math.floor(Date.now() / 1000);
    return jwt.sign(
      { sub: user.id, rol: user.rol, jti: 'expired', iat: now - 7200, exp: now - 3600 },
      key.privateKey,
      { algorithm: 'RS256', keyid: key.kid },
    );
  },
  tampered(user: { id: string; rol: Role }): string {
    const [header, , signature] = mintToken(user).split('.');
    const payload = base64url({ sub: user.id, rol: 'ADMIN', jti: 'x', iat: 1, exp: 4102444800 });
    return `${header}.${payload}.${signature}`;
  },
  algNone(user: { id: string; rol: Role }): string {
    const header = base64url({ alg: 'none', typ: 'JWT', kid: TEST_SIGNING_KEY.kid });
    return `${header}.${base64url({ ...claimsOf(user, 'none'), exp: 4102444800 })}.`;
  },
  withoutExpiry(user: { id: string; rol: Role }, key: SigningKey = TEST_SIGNING_KEY): string {
    return jwt.sign(
      { sub: user.id, rol: user.rol, jti: 'noexp', iat: Math.floor(Date.now() / 1000) },
      key.privateKey,
      {
        algorithm: 'RS256',
        keyid: key.kid,
      },
    );
  },
  /** Signed with a key nobody published, named by its own thumbprint. */
  otherKey(user: { id: string; rol: Role }, key: SigningKey = newSigningKey()): string {
    return mintToken(user, 3600, key);
  },
  /** Signed with a key nobody published, claiming the trusted key's `kid`. */
  otherKeyTrustedKid(user: { id: string; rol: Role }): string {
    const other = newSigningKey();
    return mintToken(user, 3600, { ...other, kid: TEST_SIGNING_KEY.kid });
  },
  /** HS256 with the trusted public key as the HMAC secret: PEM (SPKI), PKCS1 or its JWK's JSON. */
  hs256WithPublicKey(
    user: { id: string; rol: Role },
    form: 'pem' | 'pkcs1' | 'jwk',
    publicKey?: KeyObject,
  ): string {
    const key = publicKey ?? TEST_SIGNING_KEY.publicKey;
    const secret =
      form === 'jwk'
        ? JSON.stringify(publicJwkOf(key))
        : key.export({ format: 'pem', type: form === 'pem' ? 'spki' : 'pkcs1' }).toString();
    return hs256(claimsOf(user, 'hs256'), secret, keyIdOf(key));
  },
  /** EdDSA with an Ed25519 key nobody published (jsonwebtoken cannot sign it: made by hand). */
  eddsa(user: { id: string; rol: Role }, kid = TEST_SIGNING_KEY.kid): string {
    const { privateKey } = generateKeyPairSync('ed25519');
    const signingInput = `${base64url({ alg: 'EdDSA', typ: 'JWT', kid })}.${base64url(claimsOf(user, 'eddsa'))}`;
    return `${signingInput}.${sign(null, Buffer.from(signingInput), privateKey).toString('base64url')}`;
  },
  withoutKid(user: { id: string; rol: Role }): string {
    return jwt.sign(claimsOf(user, 'nokid'), TEST_SIGNING_KEY.privateKey, { algorithm: 'RS256' });
  },
  /** Signed with the trusted key but naming a made-up key id (of the right shape). */
  unknownKid(user: { id: string; rol: Role }): string {
    return jwt.sign(claimsOf(user, 'unknownkid'), TEST_SIGNING_KEY.privateKey, {
      algorithm: 'RS256',
      keyid: randomBytes(32).toString('base64url'),
    });
  },
};
