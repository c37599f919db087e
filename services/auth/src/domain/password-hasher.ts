import argon2 from 'argon2';

/** argon2id with OWASP's recommended minimum cost (19 MiB, 2 passes): slow for attackers, ~30 ms here. */
const OPTIONS = { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string): Promise<string> => argon2.hash(password, OPTIONS);

/** A hash of nothing in particular, verified when the account is unknown so timing reveals nothing. */
const decoyHash = hashPassword('decoy-password-for-unknown-accounts');

export async function verifyPassword(hash: string | undefined, password: string): Promise<boolean> {
  try {
    if (!hash) {
      await argon2.verify(await decoyHash, password);
      return false;
    }
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}
