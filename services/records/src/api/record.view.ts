import type { RecordView } from '@crm/contracts';
import type { ClinicalRecord } from '../domain/record';

/** The record JSON (`_id` and `id` are the same value). */
export function toRecordView(record: ClinicalRecord): RecordView {
  return {
    _id: record.id,
    id: record.id,
    userId: record.userId,
    dateId: record.dateId,
    doctor: { id: record.doctor.id, name: record.doctor.name },
    user: { name: record.user.name },
    date: { date: record.date.date.toISOString() },
    metadata: record.metadata,
    configVersion: record.configVersion,
    view: record.view,
    createdAt: record.createdAt.toISOString(),
    updatedAt: record.updatedAt.toISOString(),
  };
}
