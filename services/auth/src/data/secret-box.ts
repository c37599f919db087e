import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Authenticated encryption (AES-256-GCM) of the secrets kept in the database (authenticator secrets,
 * the token signing keys), so a copy of the database alone does not let anyone produce codes or
 * sign sessions. Each purpose has its own key derived from the at-rest key. Stored as
 * `v1.<iv>.<tag>.<ciphertext>` (base64url).
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(keyMaterial: string, purpose: 'mfa-secret-box' | 'token-signing-keys' = 'mfa-secret-box') {
    this.key = Buffer.from(hkdfSync('sha256', keyMaterial, 'crm-auth', purpose, 32));
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), sealed]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  open(stored: string): string {
    const [version, iv, tag, sealed] = stored.split('.');
    if (version !== 'v1' || !iv || !tag || !sealed) throw new Error('unknown secret format');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    try {
      return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    } catch {
      // Node says only "unable to authenticate data"; the operator needs to know which key to look at.
      throw new Error(
        'a secret stored in the database does not open with MFA_ENCRYPTION_KEY: the key is not the one it was sealed with',
      );
    }
  }
}
