import { z } from 'zod';
import { AUDIT_REASON_MAX_LENGTH } from '../events/audit.events';

/**
 * "Estado del sistema" (docs/product/back-office.md#system-status): the deployables' readiness and
 * version, the queues' depth, each service's outbox lag, and the dead letters an ADMIN may send back
 * to their queue or discard. Served by the reporting service under `/system/…`.
 */

/** Every service's internal status call (server-kit `internalStatusRoutes`); not behind the gateway. */
export const INTERNAL_STATUS_PATH = '/internal/status';

/** What one service says about itself at `GET /internal/status`. */
export interface InternalStatus {
  deployable: string;
  version: string;
  commit: string | null;
  /** Its consumer queues (main names; each has `.retry` and `.dlq`). */
  queues: string[];
  outbox: {
    /** Entries written and not yet published. */
    pending: number;
    /** When the oldest of them happened; null when none is pending. */
    oldestAt: string | null;
    /** Age of the oldest pending entry (0 when none). */
    lagMs: number;
  };
}

export type Readiness = 'ready' | 'not-ready' | 'unreachable' | 'unknown';

export interface DeployableStatusView {
  name: string;
  readiness: Readiness;
  version: string | null;
  commit: string | null;
  /** null when the deployable has no outbox (the gateway) or did not answer. */
  outbox: InternalStatus['outbox'] | null;
}

export interface QueueStatusView {
  /** The consumer queue (main name). */
  queue: string;
  /** Who consumes it (the second part of its name). */
  deployable: string;
  /** Ready messages in the queue, its `.retry` and its `.dlq`; null when it could not be read. */
  messages: number | null;
  retry: number | null;
  deadLetters: number | null;
  consumers: number | null;
}

export interface SystemStatusView {
  checkedAt: string;
  deployables: DeployableStatusView[];
  queues: QueueStatusView[];
}

/** One dead letter as the list shows it: names, ids and instants, never the event's data. */
export interface DeadLetterView {
  queue: string;
  /** AMQP message id (the publisher sets the event id); the key of redeliver and discard. */
  messageId: string;
  eventId: string | null;
  event: string | null;
  routingKey: string | null;
  reason: string | null;
  /** When the consumer moved it to the `.dlq` (`x-dead-lettered-at`). */
  deadLetteredAt: string | null;
  /** When the event happened (the envelope's `occurredAt`). */
  occurredAt: string | null;
  attempts: number | null;
  publishedBy: string | null;
}

export interface DeadLettersView {
  deadLetters: DeadLetterView[];
}

/** Queue names as the consumers make them: `<prefix>.<deployable>.<purpose>`. */
export const SYSTEM_QUEUE_PATTERN = /^[A-Za-z0-9_-]{1,64}\.[a-z][a-z0-9-]{0,39}\.[a-z][a-z0-9-]{0,63}$/;
/** A dead letter's message id (the event id the publisher set). */
export const DEAD_LETTER_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

// eslint-disable-next-line no-control-regex
const NO_CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f-\u009f\u2028\u2029]*$/;

/** `POST /system/dead-letters/:queue/:messageId/discard`. */
export const discardDeadLetterSchema = z.object({
  reason: z
    .string({ error: 'Indique el motivo' })
    .trim()
    .min(3, 'Indique el motivo (al menos 3 caracteres)')
    .max(AUDIT_REASON_MAX_LENGTH, `El motivo admite como mucho ${AUDIT_REASON_MAX_LENGTH} caracteres`)
    .regex(NO_CONTROL_CHARACTERS, 'El motivo no puede llevar caracteres de control'),
});
export type DiscardDeadLetterRequest = z.infer<typeof discardDeadLetterSchema>;

/** `POST /system/dead-letters/:queue/:messageId/redeliver`: a reason is optional. */
export const redeliverDeadLetterSchema = z.object({
  reason: discardDeadLetterSchema.shape.reason.optional(),
});

/**
 * Set by the gateway on `GET /system/status` as it passes it on (always its own value, never the
 * client's): `{"version": …, "commit": …}` of the gateway, which has no internal status call.
 */
export const GATEWAY_STATUS_HEADER = 'x-crm-gateway-status';
