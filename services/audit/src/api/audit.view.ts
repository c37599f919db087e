import type { AuditEntryView, MyAuditEntryView } from '@crm/contracts';
import type { AuditRow } from '../domain/audit-entry';
import { csvLine } from '@crm/server-kit';

export function toEntryView(row: AuditRow): AuditEntryView {
  return {
    at: row.at.toISOString(),
    actorId: row.actorId,
    actorName: row.actorName ?? null,
    actorRol: row.actorRol,
    action: row.action,
    patientId: row.patientId ?? null,
    resource: row.resource,
    resourceId: row.resourceId ?? null,
    requestId: row.requestId ?? null,
    clientRequestId: row.clientRequestId ?? null,
    clientAddress: row.clientAddress ?? null,
    outcome: row.outcome ?? null,
    reason: row.reason ?? null,
  };
}

/** A patient sees who (name and role, not the staff member's id or address) did what, and when. */
export function toMyEntryView(row: AuditRow): MyAuditEntryView {
  return {
    at: row.at.toISOString(),
    actorName: row.actorName ?? null,
    actorRol: row.actorRol,
    action: row.action,
    resource: row.resource,
  };
}

export const CSV_HEADER = csvLine([
  'fecha',
  'id_usuario',
  'nombre_usuario',
  'rol',
  'accion',
  'id_paciente',
  'recurso',
  'id_recurso',
  'id_peticion',
  'direccion_cliente',
  'resultado',
  'id_peticion_cliente',
  'motivo',
]);

export function toCsvLine(row: AuditRow): string {
  return csvLine([
    row.at.toISOString(),
    row.actorId,
    row.actorName,
    row.actorRol,
    row.action,
    row.patientId,
    row.resource,
    row.resourceId,
    row.requestId,
    row.clientAddress,
    row.outcome,
    row.clientRequestId,
    row.reason,
  ]);
}
