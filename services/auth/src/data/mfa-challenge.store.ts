import type { Redis } from 'ioredis';
import { hashToken, newOneTimeToken } from '../domain/one-time-token';
import type { MfaChallenge, MfaChallenges } from '../domain/mfa.service';

const key = (hash: string) => `auth:mfa:${hash}`;
const attemptsKey = (hash: string) => `auth:mfa-attempts:${hash}`;

/**
 * The `mfaToken`s of sign-ins waiting for their second factor, in Redis for their few minutes
 * (only the token's hash is stored). Each allows a few wrong codes, then ends.
 */
export class RedisMfaChallenges implements MfaChallenges {
  constructor(
    private readonly redis: Redis,
    private readonly ttlSeconds: number,
    private readonly maxAttempts = 5,
  ) {}

  async open(challenge: MfaChallenge): Promise<string> {
    const { token, hash } = newOneTimeToken();
    await this.redis.set(key(hash), JSON.stringify(challenge), 'EX', this.ttlSeconds);
    return token;
  }

  async find(token: string): Promise<MfaChallenge | undefined> {
    const stored = await this.redis.get(key(hashToken(token)));
    return stored ? (JSON.parse(stored) as MfaChallenge) : undefined;
  }

  async failed(token: string): Promise<void> {
    const hash = hashToken(token);
    const attempts = await this.redis.incr(attemptsKey(hash));
    await this.redis.expire(attemptsKey(hash), this.ttlSeconds);
    if (attempts >= this.maxAttempts) await this.redis.del(key(hash));
  }

  async close(token: string): Promise<boolean> {
    return (await this.redis.del(key(hashToken(token)))) === 1;
  }
}
