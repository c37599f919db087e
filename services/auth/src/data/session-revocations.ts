import type { Redis } from 'ioredis';
import { sessionEnded, sessionKeys, type EventData } from '@crm/contracts';
import { createEnvelope, withOutbox } from '@crm/event-bus';
import { correlationIdOrNew, isDuplicateKey, type Logger } from '@crm/server-kit';
import type { SessionRevocations } from '../domain/user';
import type { UserModels } from './user.model';

interface RevokedSessionDocument {
  _id: string;
  expiresAt: Date;
  storedAt?: Date;
  userId?: string;
  validAfter?: number;
}

/** How far back a re-sync looks before its last success (writes that were in flight then). */
const RESYNC_OVERLAP_MS = 60_000;

/**
 * The database is the record of ended sessions (the auth service checks it). Each one is also
 * announced, through the outbox in the same insert, as `auth.session.ended.v1`: every service that
 * verifies tokens keeps it and refuses the session by itself (server-kit's ended-sessions.ts), also
 * while Redis is down. Redis carries the same facts to the gateway, which checks every request
 * cheaply: a key per fact, and an announcement on `sessionKeys.endedChannel` right after it so that
 * a gateway forgets the answers it remembers. A write to Redis that fails (an outage) is made again by `syncToRedis`, so the gateway's
 * view is only delayed, never lost.
 */
export class SessionRevocationStore implements SessionRevocations {
  /** Until when Redis is known to hold every fact stored before (minus the overlap). */
  private syncedUntil: Date | undefined;

  constructor(
    private readonly models: UserModels,
    private readonly redis: Redis,
    private readonly maxTokenLifetimeSeconds: number,
    private readonly logger: Logger,
    private readonly outboxWritten: () => void,
  ) {}

  async revoke(tokenId: string, expiresAt: Date): Promise<void> {
    const doc = { _id: tokenId, expiresAt };
    await this.record(doc, { tokenId, until: expiresAt.toISOString() });
    await this.tellGateway(doc);
  }

  async isRevoked(tokenId: string): Promise<boolean> {
    return (await this.models.RevokedSession.exists({ _id: tokenId })) !== null;
  }

  async invalidateSessionsBefore(userId: string, at: Date): Promise<void> {
    const validAfter = Math.floor(at.getTime() / 1000);
    const until = new Date(at.getTime() + this.maxTokenLifetimeSeconds * 1000);
    const doc = { _id: `valid-after:${userId}:${validAfter}`, expiresAt: until, userId, validAfter };
    await this.record(doc, { userId, validAfter, until: until.toISOString() });
    await this.tellGateway(doc);
  }

  /**
   * Writes to Redis again every fact stored since the last sync that fully succeeded (all of them
   * after a restart). Cheap: ended sessions are few, and the writes are pipelined.
   */
  async syncToRedis(): Promise<number> {
    const startedAt = new Date();
    const since = this.syncedUntil ? new Date(this.syncedUntil.getTime() - RESYNC_OVERLAP_MS) : new Date(0);
    const docs = await this.models.RevokedSession.find({
      storedAt: { $gte: since },
      expiresAt: { $gt: startedAt },
    }).lean<RevokedSessionDocument[]>();
    if (docs.length > 0) await this.writeToRedis(docs);
    this.syncedUntil = startedAt;
    return docs.length;
  }

  /** One insert: the fact and its event (a second sign-out of one token stores nothing more). */
  private async record(doc: RevokedSessionDocument, fact: EventData<typeof sessionEnded>) {
    const event = createEnvelope(sessionEnded, fact, correlationIdOrNew());
    try {
      await this.models.RevokedSession.create(withOutbox({ ...doc, storedAt: new Date() }, event));
      this.outboxWritten();
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
    await this.models.RevokedSession.deleteMany({ expiresAt: { $lt: new Date() } });
  }

  /** The Redis key, value and seconds to live through which the gateway learns of this fact. */
  private redisEntry(doc: RevokedSessionDocument): [string, string, 'EX', number] {
    const ttl = Math.max(1, Math.ceil((doc.expiresAt.getTime() - Date.now()) / 1000));
    return doc.userId
      ? [sessionKeys.validAfter(doc.userId), String(doc.validAfter), 'EX', ttl]
      : [sessionKeys.revokedToken(doc._id), '1', 'EX', ttl];
  }

  /** What the gateways hear on the ended-sessions channel: they forget the answers they remember. */
  private announcement(doc: RevokedSessionDocument): [string, string] {
    const fact = doc.userId ? { userId: doc.userId, validAfter: doc.validAfter } : { tokenId: doc._id };
    return [sessionKeys.endedChannel, JSON.stringify(fact)];
  }

  /** Each fact's key, then its announcement (one pipelined connection keeps them in that order). */
  private async writeToRedis(docs: RevokedSessionDocument[]): Promise<void> {
    const pipeline = this.redis.pipeline();
    for (const doc of docs) pipeline.set(...this.redisEntry(doc)).publish(...this.announcement(doc));
    const results = await pipeline.exec();
    if (!results || results.some(([error]) => error))
      throw new Error('Redis did not take the ended sessions');
  }

  private async tellGateway(doc: RevokedSessionDocument): Promise<void> {
    try {
      await this.writeToRedis([doc]);
    } catch (error) {
      // Written again by the next `syncToRedis` from the database record.
      this.syncedUntil = undefined;
      this.logger.warn({ err: (error as Error).message }, 'could not publish session change to Redis');
    }
  }
}
