import { Schema, type Connection, type Model } from 'mongoose';
import { sessionEnded } from '@crm/contracts';
import { on } from '@crm/event-bus';
import type { AuthenticatedUser, SessionCheck } from '../auth';
import { isDuplicateKey } from '../duplicate-key';
import type { BackgroundTask } from './types';

/**
 * Ended sessions as every service that verifies tokens knows them: a signed-out token, or
 * the instant before which a user's tokens no longer count (password reset, disabled account).
 *
 * The gateway learns of ended sessions through Redis, and fails open while Redis is down. So that an ended
 * session is still refused then, each service keeps the auth service's `auth.session.ended.v1`
 * events in its own database (collection `ended_sessions`, one document per fact, insert-only)
 * and checks a copy in memory on every request (no round trip). Every replica reloads the facts
 * stored since its last look every `ENDED_SESSIONS_POLL_MS` (1 s), so a session ended through any
 * replica's queue is refused by all of them within about a second. Facts are dropped once no
 * token they concern can still be valid (`until`).
 */
export const ENDED_SESSIONS_COLLECTION = 'ended_sessions';

interface EndedSessionDocument {
  _id: string;
  tokenId?: string;
  userId?: string;
  validAfter?: number;
  until: Date;
  storedAt: Date;
}

const endedSessionSchema = new Schema<EndedSessionDocument>(
  {
    _id: { type: String, required: true },
    tokenId: String,
    userId: String,
    validAfter: Number,
    until: { type: Date, required: true },
    storedAt: { type: Date, required: true },
  },
  { collection: ENDED_SESSIONS_COLLECTION, versionKey: false },
);
endedSessionSchema.index({ storedAt: 1 });
endedSessionSchema.index({ until: 1 });

/** Facts stored this close together may become visible out of order (clocks, slow inserts): look back. */
const LOOK_BACK_MS = 5_000;

export function createEndedSessions(connection: Connection, options: { pollMs?: number } = {}) {
  const model =
    (connection.models.EndedSession as Model<EndedSessionDocument> | undefined) ??
    connection.model<EndedSessionDocument>('EndedSession', endedSessionSchema);
  const revokedTokens = new Map<string, number>();
  const validAfter = new Map<string, { after: number; until: number }>();
  let lastLook = 0;

  const remember = (doc: EndedSessionDocument) => {
    const until = doc.until.getTime();
    if (doc.tokenId) revokedTokens.set(doc.tokenId, until);
    if (doc.userId && doc.validAfter !== undefined) {
      const known = validAfter.get(doc.userId);
      if (!known || known.after < doc.validAfter)
        validAfter.set(doc.userId, { after: doc.validAfter, until });
    }
  };

  const forgetExpired = (now: number) => {
    for (const [tokenId, until] of revokedTokens) if (until < now) revokedTokens.delete(tokenId);
    for (const [userId, { until }] of validAfter) if (until < now) validAfter.delete(userId);
  };

  /** The facts stored since the last look (all of them the first time), then forgets expired ones. */
  const refresh: BackgroundTask = {
    name: 'ended sessions',
    intervalMs: options.pollMs ?? 1_000,
    run: async () => {
      const startedAt = Date.now();
      const docs = await model
        .find({ storedAt: { $gte: new Date(lastLook - LOOK_BACK_MS) } })
        .lean<EndedSessionDocument[]>();
      docs.forEach(remember);
      forgetExpired(startedAt);
      if (lastLook === 0 || startedAt - lastLook > 60_000) {
        // Once a minute is plenty: expired facts only cost a little space.
        await model.deleteMany({ until: { $lt: new Date(startedAt) } });
      }
      lastLook = startedAt;
    },
  };

  /** Stores one fact, once (its id comes from what it says, so a redelivery is a duplicate key). */
  const store = async (fact: { tokenId?: string; userId?: string; validAfter?: number; until: string }) => {
    const doc: EndedSessionDocument = {
      _id: fact.tokenId ? `token:${fact.tokenId}` : `user:${fact.userId}:${fact.validAfter}`,
      ...fact,
      until: new Date(fact.until),
      storedAt: new Date(),
    };
    try {
      await model.create(doc);
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
    remember(doc);
  };

  /** True unless the session was signed out, or issued before the user's sessions were ended. */
  const isSessionValid: SessionCheck = (user: AuthenticatedUser) => {
    if (revokedTokens.has(user.tokenId)) return false;
    const ended = validAfter.get(user.id);
    return !ended || user.issuedAt >= ended.after;
  };

  return {
    model,
    refresh,
    isSessionValid,
    /** The consumer's events: each service subscribes on `<QUEUE_PREFIX>.<service>.sessions`. */
    events: [on(sessionEnded, (event) => store(event.data))] as const,
  };
}

export type EndedSessions = ReturnType<typeof createEndedSessions>;
