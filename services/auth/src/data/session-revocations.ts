import type { Redis } from 'ioredis';
import { sessionKeys } from '@crm/contracts';
import type { Logger } from '@crm/server-kit';
import type { SessionRevocations } from '../domain/user';
import type { UserModels } from './user.model';

/**
 * The database is the record of ended sessions (the auth service checks it); Redis carries the same
 * facts to the gateway, which checks every request. A Redis outage only delays the gateway's view.
 */
export class SessionRevocationStore implements SessionRevocations {
  constructor(
    private readonly models: UserModels,
    private readonly redis: Redis,
    private readonly maxTokenLifetimeSeconds: number,
    private readonly logger: Logger,
  ) {}

  async revoke(tokenId: string, expiresAt: Date): Promise<void> {
    await this.models.RevokedSession.updateOne({ _id: tokenId }, { $set: { expiresAt } }, { upsert: true });
    await this.models.RevokedSession.deleteMany({ expiresAt: { $lt: new Date() } });
    const ttl = Math.max(1, Math.ceil((expiresAt.getTime() - Date.now()) / 1000));
    await this.tellGateway(() => this.redis.set(sessionKeys.revokedToken(tokenId), '1', 'EX', ttl));
  }

  async isRevoked(tokenId: string): Promise<boolean> {
    return (await this.models.RevokedSession.exists({ _id: tokenId })) !== null;
  }

  async invalidateSessionsBefore(userId: string, at: Date): Promise<void> {
    const seconds = String(Math.floor(at.getTime() / 1000));
    await this.tellGateway(() =>
      this.redis.set(sessionKeys.validAfter(userId), seconds, 'EX', this.maxTokenLifetimeSeconds),
    );
  }

  private async tellGateway(write: () => Promise<unknown>): Promise<void> {
    try {
      await write();
    } catch (error) {
      this.logger.warn({ err: (error as Error).message }, 'could not publish session change to Redis');
    }
  }
}
