import type { Paged } from './paging';
import { z } from 'zod';
import {
  AUDIT_ACTION_PATTERN,
  AUDIT_ID_PATTERN,
  type AuditActorRole,
  type AuditOutcome,
} from '../events/audit.events';

const PAGE_INVALID = 'El número de página no es válido';
const LIMIT_INVALID = 'El tamaño de página no es válido';
const DATE_INVALID = 'La fecha no es válida (AAAA-MM-DD o fecha y hora ISO con zona)';

const page = z.coerce
  .number({ error: PAGE_INVALID })
  .int(PAGE_INVALID)
  .min(1, PAGE_INVALID)
  .max(100000, PAGE_INVALID)
  .default(1);
/** Capped at 100, like every paged list. */
const limit = z.coerce
  .number({ error: LIMIT_INVALID })
  .int(LIMIT_INVALID)
  .min(1, LIMIT_INVALID)
  .default(20)
  .transform((value) => Math.min(value, 100));
/** Part of a staff member's name, taken literally (ignoring case and accents). */
const search = z
  .string({ error: 'La búsqueda no es válida' })
  .trim()
  .max(100, 'La búsqueda no puede superar los 100 caracteres')
  .default('');
const id = (message: string) => z.string({ error: message }).regex(AUDIT_ID_PATTERN, message);
/**
 * A calendar day `2026-05-31` (a whole day in the centre's time zone: `from` its start, `to` its end)
 * or an instant with its zone `2026-05-31T09:00:00.000Z`. The service resolves days to instants.
 */
const dateOrInstant = z
  .string({ error: DATE_INVALID })
  .max(40, DATE_INVALID)
  .refine(
    (value) =>
      /^\d{4}-\d{2}-\d{2}$/.test(value)
        ? !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) &&
          new Date(`${value}T00:00:00Z`).toISOString().startsWith(value)
        : z.iso.datetime({ offset: true }).safeParse(value).success,
    DATE_INVALID,
  );

/** Unknown parameters are refused rather than ignored: a typo must not widen an audit query. */
const unknownParameter = {
  error: (issue: { code?: string }) =>
    issue.code === 'unrecognized_keys' ? 'Parámetro de consulta no permitido' : undefined,
};

const filters = {
  patientId: id('El identificador del paciente no es válido').optional(),
  actorId: id('El identificador del usuario no es válido').optional(),
  action: z
    .string({ error: 'La acción no es válida' })
    .regex(AUDIT_ACTION_PATTERN, 'La acción no es válida')
    .optional(),
  from: dateOrInstant.optional(),
  to: dateOrInstant.optional(),
  search,
};

/** `GET /audit` (ADMIN): newest first, one row per patient named by an entry. */
export const auditQuery = z.strictObject({ ...filters, page, limit }, unknownParameter);
export type AuditQuery = z.infer<typeof auditQuery>;

/** `GET /audit/export.csv` (ADMIN): the same filters, every matching row. */
export const auditExportQuery = z.strictObject(filters, unknownParameter);
export type AuditExportQuery = z.infer<typeof auditExportQuery>;

/** `GET /audit/mine` (PACIENT): the staff's accesses to the caller's own data. */
export const auditMineQuery = z.strictObject({ search, page, limit }, unknownParameter);
export type AuditMineQuery = z.infer<typeof auditMineQuery>;

/** One row of the trail as an ADMIN reads it. */
export interface AuditEntryView {
  at: string;
  actorId: string;
  /** null when neither the producer nor the staff directory knew it. */
  actorName: string | null;
  actorRol: AuditActorRole;
  action: string;
  /** null for entries about no patient (configuration, staff accounts, sign-ins). */
  patientId: string | null;
  resource: string;
  resourceId: string | null;
  requestId: string | null;
  clientRequestId: string | null;
  clientAddress: string | null;
  outcome: AuditOutcome | null;
  /** An administrator's stated reason for a platform action (a dead letter discarded); else null. */
  reason: string | null;
}

export interface AuditPage extends Paged {
  entries: AuditEntryView[];
}

/** One row of `GET /audit/mine`: who on the staff (by name and role, never by id) did what, and when. */
export interface MyAuditEntryView {
  at: string;
  actorName: string | null;
  actorRol: AuditActorRole;
  action: string;
  resource: string;
}

export interface MyAuditPage extends Paged {
  entries: MyAuditEntryView[];
}
