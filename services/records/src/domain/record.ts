import type { AppointmentStatus, EventEnvelope, MetadataEntry, Role, ViewConfigView } from '@crm/contracts';

/**
 * A clinical record: the outcome of one appointment's check-up (docs/product/clinical-records.md#record). Its
 * id is its appointment's id (one record per appointment, by construction). Every save is a new revision.
 */
export interface ClinicalRecord {
  /** = dateId. */
  id: string;
  /** The patient. */
  userId: string;
  /** The appointment. */
  dateId: string;
  /** The doctor who created it, with the name the auth service had for them then. */
  doctor: { id: string; name: string };
  /** The patient's name when the record was created (from the appointment). */
  user: { name: string };
  /** The appointment's instant. */
  date: { date: Date };
  metadata: Record<string, MetadataEntry>;
  /** Version of the view configuration the metadata was last validated against. */
  configVersion: number;
  view: string;
  /** 1 when created, +1 per update. */
  revision: number;
  /** Who saved this revision (the doctor for revision 1). */
  updatedBy: { id: string };
  createdAt: Date;
  updatedAt: Date;
}

export interface RecordPageQuery {
  page: number;
  limit: number;
  search: string;
}

export interface RecordRepository {
  /** The latest revision, or undefined. */
  findById(id: string): Promise<ClinicalRecord | undefined>;
  /**
   * Stores `record.revision` with its event in one write. Resolves false when that revision
   * exists already: the appointment has a record (revision 1), or someone else saved first.
   */
  save(record: ClinicalRecord, event: EventEnvelope): Promise<boolean>;
  /** `totalIsEstimate` when the whole list was not counted (no search: the collection's size). */
  list(query: RecordPageQuery): Promise<{ items: ClinicalRecord[]; total: number; totalIsEstimate: boolean }>;
  /** Every record of one patient, newest appointment first. */
  listOfPatient(userId: string): Promise<ClinicalRecord[]>;
}

/** Who calls, with their bearer token: the other services are asked with the caller's own rights. */
export interface Caller {
  id: string;
  rol: Role;
  bearerToken: string;
}

export interface AppointmentSnapshot {
  id: string;
  date: Date;
  status: AppointmentStatus;
  patientId: string;
  patientName: string;
}

/** The appointments service. Undefined when the appointment does not exist. */
export interface AppointmentSource {
  find(dateId: string, caller: Caller): Promise<AppointmentSnapshot | undefined>;
}

/** The auth service: the caller's own display name. */
export interface StaffDirectory {
  nameOf(caller: Caller): Promise<string>;
}

/** The config service (through a cache): the current configuration of a view. */
export interface ViewConfigSource {
  current(view: string, caller: Caller): Promise<ViewConfigView>;
}
