import { isIP } from 'node:net';
import type { Request } from 'express';
import { Schema, type Connection, type Model } from 'mongoose';
import { acceptableRequestId, CLIENT_REQUEST_ID_HEADER } from '../request-context';
import {
  AUDIT_ANONYMOUS_ACTOR,
  AUDIT_MAX_PATIENTS_PER_ENTRY,
  AUDIT_REQUEST_ID_PATTERN,
  auditEntryRecorded,
  auditEntriesQueue,
  type AuditActorRole,
  type AuditEntryData,
  type AuditOutcome,
} from '@crm/contracts';
import {
  createEnvelope,
  OUTBOX_FIELD,
  OUTBOX_REJECTED_FIELD,
  outboxPlugin,
  withOutbox,
} from '@crm/event-bus';
import { correlationIdOrNew } from '../request-context';
import type { BackgroundTask } from './types';

/**
 * The producer side of the access trail: how any service records "who read or changed
 * whose data". See services/audit/README.md ("How to record").
 *
 * - Durable without the broker: an entry is ONE insert into the service's own `audit_outbox`
 *   collection, the `audit.entry.recorded.v1` event in the document's outbox and nothing else. The
 *   service's outbox relay (give it `trail.model`) publishes it when the broker is reachable, and
 *   the audit service stores it (idempotently, by event id) whenever it runs. A broker outage
 *   therefore never fails the user's request; a database outage fails it, as any request then fails.
 * - Nothing lingers: once the relay has published the event (and pulled it from the outbox), the
 *   emptied document is deleted by the trail's sweeper (`runtime.every(trail.sweeper)`), so the
 *   producer keeps no copy of who-saw-whom. Documents whose entry the relay refused (not a valid
 *   envelope: cannot happen with `record`, which validates) are kept for an operator.
 * - Cheap: one local insert (~1 ms on MongoDB, ~5 ms on FerretDB here), then a relay kick that runs
 *   after the response; no network call to another service on the request path.
 */
export const AUDIT_OUTBOX_COLLECTION = 'audit_outbox';

/**
 * The audit service's consumer queue of entries: `<QUEUE_PREFIX>.audit.entries`. The broker's
 * definitions declare it (producers may not: their broker users configure only their own queues),
 * so entries published before the audit service ever ran are kept.
 */
export { auditEntriesQueue };

/** What a caller states about one access; `at` defaults to now, `patientIds` to none. */
export interface AuditEntryInput {
  actorId: string;
  actorRol: AuditActorRole;
  actorName?: string;
  action: string;
  resource: string;
  resourceId?: string;
  /** Any number: more than 100 become several entries (one event each). Repeats are dropped. */
  patientIds?: readonly string[];
  requestId?: string;
  clientRequestId?: string;
  clientAddress?: string;
  outcome?: AuditOutcome;
  /** An administrator's stated reason (platform actions only; never patient data). */
  reason?: string;
  at?: Date;
}

/** What a route states; the actor, request id and client address come from the request. */
export interface AuditWhat {
  action: string;
  resource: string;
  resourceId?: string;
  patientIds?: readonly string[];
  outcome?: AuditOutcome;
  /** An administrator's stated reason (platform actions only; never patient data). */
  reason?: string;
  /**
   * Who acted, when it is not the authenticated caller or to add a name: the account of a sign-in
   * (`{id, rol, name}`), or `{id: 'anonymous', rol: 'ANONYMOUS'}` for a sign-in to no account.
   */
  actor?: { id: string; rol: AuditActorRole; name?: string };
}

interface AuditOutboxDocument {
  createdAt: Date;
}

const auditOutboxSchema = new Schema<AuditOutboxDocument>(
  { createdAt: { type: Date, required: true } },
  { collection: AUDIT_OUTBOX_COLLECTION, versionKey: false },
);
auditOutboxSchema.plugin(outboxPlugin);
// Sweeps look for emptied documents; the relay for non-empty ones by `outbox.0`.
auditOutboxSchema.index({ createdAt: 1 });

const MODEL_NAME = 'AuditOutbox';

/** The collection's model on this connection (one per connection, however many trails use it). */
export function auditOutboxModel(connection: Connection): Model<AuditOutboxDocument> {
  return (
    (connection.models[MODEL_NAME] as Model<AuditOutboxDocument> | undefined) ??
    connection.model<AuditOutboxDocument>(MODEL_NAME, auditOutboxSchema)
  );
}

/** The client's address as the service sees it: `req.ip` (see below), only if it is an IP address. */
export function clientAddressOf(req: Pick<Request, 'ip'>): string | undefined {
  let ip = req.ip;
  if (!ip) return undefined;
  if (ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4) ip = ip.slice(7);
  return isIP(ip) ? ip : undefined;
}

/**
 * An entry for a request: the actor is `req.user` (server-kit `requireAuth`) unless `what.actor`
 * says otherwise; the request id is the gateway's X-Request-Id (sanitised again here); the client
 * address is `req.ip`. The gateway sends X-Forwarded-For ending with the address it saw (keeping a
 * client-sent chain only when it trusts a proxy in front of it, gateway/src/forwarded-headers.ts),
 * and services trust loopback and private-network hops (createHttpApp's `trust proxy`), so `req.ip`
 * is the nearest address that is not such a hop: the client's.
 */
export function auditEntryFromRequest(req: Request, what: AuditWhat): AuditEntryInput {
  const user = req.user as (NonNullable<Request['user']> & { name?: unknown }) | undefined;
  const actor = what.actor ?? {
    id: user?.id ?? AUDIT_ANONYMOUS_ACTOR,
    rol: user?.rol ?? ('ANONYMOUS' as const),
    name: typeof user?.name === 'string' ? user.name : undefined,
  };
  const requestId = req.headers['x-request-id'];
  const clientRequestId = acceptableRequestId(req.headers[CLIENT_REQUEST_ID_HEADER]);
  return {
    actorId: actor.id,
    actorRol: actor.rol,
    ...(actor.name ? { actorName: actor.name } : {}),
    action: what.action,
    resource: what.resource,
    ...(what.resourceId !== undefined ? { resourceId: what.resourceId } : {}),
    patientIds: what.patientIds ?? [],
    ...(typeof requestId === 'string' && AUDIT_REQUEST_ID_PATTERN.test(requestId) ? { requestId } : {}),
    ...(clientRequestId ? { clientRequestId } : {}),
    ...(clientAddressOf(req) ? { clientAddress: clientAddressOf(req) } : {}),
    ...(what.outcome ? { outcome: what.outcome } : {}),
    ...(what.reason ? { reason: what.reason } : {}),
  };
}

export interface AuditTrailOptions {
  /** Wakes the outbox relay after a write (`runtime.kickOutbox`); without it the relay's poll picks it up. */
  onWrite?: () => void;
  /** How often the sweeper deletes published entries. Default 60 s. */
  sweepIntervalMs?: number;
}

export interface AuditTrail {
  /** The `audit_outbox` model: add it to the service's outbox relay (`runtime.outbox([..., trail.model])`). */
  readonly model: Model<AuditOutboxDocument>;
  /**
   * Stores the entries durably (validated; one insert per 100 patients) and wakes the relay.
   * Rejects with EventValidationError on a malformed entry (a programming error) and with the
   * driver's error when the database is unreachable (the request then fails with 503).
   */
  record(...entries: AuditEntryInput[]): Promise<void>;
  /** `record(auditEntryFromRequest(req, what))`. */
  recordRequest(req: Request, what: AuditWhat): Promise<void>;
  /** Deletes documents whose event has been published; returns how many. */
  sweep(): Promise<number>;
  /** The sweep as a background task: `runtime.every(trail.sweeper)`. */
  readonly sweeper: BackgroundTask;
}

/** Splits an entry naming more than 100 patients into entries of at most 100. */
function chunks(entry: AuditEntryInput): AuditEntryInput[] {
  const patientIds = [...new Set(entry.patientIds ?? [])];
  if (patientIds.length <= AUDIT_MAX_PATIENTS_PER_ENTRY) return [{ ...entry, patientIds }];
  const parts: AuditEntryInput[] = [];
  for (let i = 0; i < patientIds.length; i += AUDIT_MAX_PATIENTS_PER_ENTRY)
    parts.push({ ...entry, patientIds: patientIds.slice(i, i + AUDIT_MAX_PATIENTS_PER_ENTRY) });
  return parts;
}

function toEventData(entry: AuditEntryInput, now: Date): AuditEntryData {
  return {
    at: (entry.at ?? now).toISOString(),
    actorId: entry.actorId,
    ...(entry.actorName ? { actorName: entry.actorName } : {}),
    actorRol: entry.actorRol,
    action: entry.action,
    patientIds: [...(entry.patientIds ?? [])],
    resource: entry.resource,
    ...(entry.resourceId !== undefined ? { resourceId: entry.resourceId } : {}),
    ...(entry.requestId ? { requestId: entry.requestId } : {}),
    ...(entry.clientRequestId ? { clientRequestId: entry.clientRequestId } : {}),
    ...(entry.clientAddress ? { clientAddress: entry.clientAddress } : {}),
    ...(entry.outcome ? { outcome: entry.outcome } : {}),
    ...(entry.reason ? { reason: entry.reason } : {}),
  };
}

/**
 * The access trail of one service, on its own database connection:
 *
 *   const audit = createAuditTrail(runtime.connection, { onWrite: runtime.kickOutbox });
 *   runtime.outbox([models.Appointment, audit.model]);
 *   runtime.every(audit.sweeper);
 *   await audit.recordRequest(req, { action: 'appointment.read', resource: 'appointment', … });
 */
export function createAuditTrail(connection: Connection, options: AuditTrailOptions = {}): AuditTrail {
  const model = auditOutboxModel(connection);

  const trail: AuditTrail = {
    model,
    async record(...entries) {
      const now = new Date();
      const correlationId = correlationIdOrNew();
      // Validate everything first: a bad entry stores nothing.
      const documents = entries.flatMap(chunks).map((entry) => ({
        ...withOutbox(
          { createdAt: now },
          createEnvelope(auditEntryRecorded, toEventData(entry, now), correlationId),
        ),
      }));
      if (documents.length === 0) return;
      // Native driver: one document = one atomic insert carrying its event; no mongoose casting.
      await model.collection.insertMany(documents, { ordered: true });
      options.onWrite?.();
    },
    recordRequest(req, what) {
      return trail.record(auditEntryFromRequest(req, what));
    },
    async sweep() {
      // Only documents the relay emptied: a pending entry keeps `outbox.0`, a refused one `outboxRejected`.
      const result = await model.collection.deleteMany({
        [`${OUTBOX_FIELD}.0`]: { $exists: false },
        [OUTBOX_REJECTED_FIELD]: { $exists: false },
      });
      return result.deletedCount;
    },
    sweeper: {
      name: 'audit outbox sweep',
      intervalMs: options.sweepIntervalMs ?? 60_000,
      run: () => trail.sweep(),
    },
  };
  return trail;
}
