import { z } from 'zod';
import { ROLES } from '../roles';
import { defineEvent } from './envelope';

/**
 * The access trail (docs/product/rights-and-access-trail.md#access-trail): one event per access to, or change
 * of, personal data — who, what, about whom, when, from where — and NEVER the data itself. Every field is an
 * identifier, a token from a small vocabulary, an instant or an address; the only texts a person chose are the
 * actor's name and, for an administrator's action on the platform itself (a dead letter discarded), the
 * reason they gave, both bounded and without control characters. Unknown keys are stripped when the envelope is
 * built, so a record's content cannot travel in it by accident.
 */

/** Patients one entry may name; a longer list view is recorded as several entries. */
export const AUDIT_MAX_PATIENTS_PER_ENTRY = 100;

/** Roles of the product, plus `ANONYMOUS` for an actor nobody knows (a failed sign-in to no account). */
export const AUDIT_ACTOR_ROLES = [...ROLES, 'ANONYMOUS'] as const;
export type AuditActorRole = (typeof AUDIT_ACTOR_ROLES)[number];

export const AUDIT_OUTCOMES = ['success', 'failure'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/** The actor id of an unknown actor (with `actorRol: 'ANONYMOUS'`). */
export const AUDIT_ANONYMOUS_ACTOR = 'anonymous';

/** A user, patient or kiosk id (ObjectIds today; any short opaque id tomorrow). */
export const AUDIT_ID_PATTERN = /^[A-Za-z0-9._:-]{1,64}$/;
/** `record.read`, `appointment.list`, `auth.signin`, `auth.2fa.verify`, `config.view.update`, `audit.export`… */
export const AUDIT_ACTION_PATTERN = /^[a-z][a-z0-9-]{0,30}(\.[a-z0-9][a-z0-9-]{0,30}){1,3}$/;
/** `record`, `appointment`, `user`, `view-config`, `session`, `audit-trail`… */
export const AUDIT_RESOURCE_PATTERN = /^[a-z][a-z0-9-]{0,39}$/;
/** Ids, dates and view names such as `doctor/appointments/:id`: no spaces, no free text. */
export const AUDIT_RESOURCE_ID_PATTERN = /^[A-Za-z0-9._:@/+-]{1,200}$/;
/** The gateway's X-Request-Id rule (server-kit `acceptableRequestId`). */
export const AUDIT_REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;
// eslint-disable-next-line no-control-regex
const NO_CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f-\u009f\u2028\u2029]*$/;

/** The longest reason an entry keeps. */
export const AUDIT_REASON_MAX_LENGTH = 500;

const auditId = z.string().regex(AUDIT_ID_PATTERN);

export const auditEntrySchema = z.object({
  /** When the access happened (the producer's clock). */
  at: z.iso.datetime({ offset: true }),
  actorId: auditId,
  /** As the producer knew it; the audit service fills it from its staff directory when absent. */
  actorName: z.string().trim().min(1).max(120).regex(NO_CONTROL_CHARACTERS).optional(),
  actorRol: z.enum(AUDIT_ACTOR_ROLES),
  action: z.string().regex(AUDIT_ACTION_PATTERN),
  /** The patients whose data was read or changed; empty for configuration, staff and sign-in events. */
  patientIds: z
    .array(auditId)
    .max(AUDIT_MAX_PATIENTS_PER_ENTRY)
    .refine((ids) => new Set(ids).size === ids.length, 'patientIds must not repeat'),
  resource: z.string().regex(AUDIT_RESOURCE_PATTERN),
  resourceId: z.string().regex(AUDIT_RESOURCE_ID_PATTERN).optional(),
  requestId: z.string().regex(AUDIT_REQUEST_ID_PATTERN).optional(),
  /** The id the client sent with its request, kept apart: it is the client's word, not ours. */
  clientRequestId: z.string().regex(AUDIT_REQUEST_ID_PATTERN).optional(),
  clientAddress: z.union([z.ipv4(), z.ipv6()]).optional(),
  outcome: z.enum(AUDIT_OUTCOMES).optional(),
  /** Why an administrator acted on the platform (a dead letter redelivered or discarded); never patient data. */
  reason: z.string().trim().min(1).max(AUDIT_REASON_MAX_LENGTH).regex(NO_CONTROL_CHARACTERS).optional(),
});
export type AuditEntryData = z.infer<typeof auditEntrySchema>;

/** Published by every service that records an access (through its `audit_outbox`), consumed by `audit`. */
export const auditEntryRecorded = defineEvent('audit.entry.recorded.v1', auditEntrySchema, {
  publishers: ['appointments', 'audit', 'auth', 'config', 'payments', 'records', 'reporting'],
  consumers: ['audit'],
});
