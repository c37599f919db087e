import {
  RECORDS_VIEW,
  recordCreated,
  recordUpdated,
  type MetadataEntry,
  type MetadataInput,
} from '@crm/contracts';
import { createEnvelope } from '@crm/event-bus';
import { badRequest, conflict, correlationIdOrNew, fieldError, notFound } from '@crm/server-kit';
import { summarizeIssues, validateMetadata } from '@crm/view-config';
import { RECORD_MESSAGES as messages } from './record.messages';
import type {
  AppointmentSource,
  Caller,
  ClinicalRecord,
  RecordPageQuery,
  RecordRepository,
  StaffDirectory,
  ViewConfigSource,
} from './record';

/** Appointments in these states are over without a check-up: they take no record. */
const ENDED_STATUSES = new Set(['cancelled', 'deleted']);

/** Concurrent updates of one record are applied one after the other; after this many collisions, 409. */
const MAX_UPDATE_ATTEMPTS = 10;

/** The payload of the record events (`records.record.created.v1`, `…updated.v1`): references and billing. */
export const recordReference = (record: ClinicalRecord) => ({
  id: record.id,
  userId: record.userId,
  dateId: record.dateId,
  doctorId: record.doctor.id,
  configVersion: record.configVersion,
  ...billingOf(record),
});

/**
 * What the record charges, for reporting (`billing` of the record events): the stored GROSS entry
 * (the price field of type GROSS), its currency and the chosen certificate type. Nothing clinical.
 */
export function billingOf(record: ClinicalRecord) {
  const gross = Object.values(record.metadata).find(
    (entry) => entry.priceType === 'GROSS' && typeof entry.value === 'number',
  );
  if (!gross) return {};
  const certificate = record.metadata.certificateType;
  const certificateType = certificate ? (certificate.selectedLabel ?? String(certificate.value)) : undefined;
  return {
    billing: {
      gross: gross.value as number,
      currency: gross.currency ?? 'EUR',
      ...(certificateType ? { certificateType: certificateType.slice(0, 200) } : {}),
      revision: record.revision,
      appointmentDate: new Date(record.date.date).toISOString(),
    },
  };
}

const alreadyRecorded = () =>
  conflict(messages.alreadyRecorded, [{ message: messages.alreadyRecorded, field: 'dateId' }]);

function checkedMetadata(
  fields: Parameters<typeof validateMetadata>[0],
  metadata: MetadataInput,
  options: Parameters<typeof validateMetadata>[2],
): Record<string, MetadataEntry> {
  const result = validateMetadata(fields, metadata, options);
  if (!result.ok) throw badRequest(summarizeIssues(result.issues), result.issues);
  return result.metadata;
}

/**
 * Clinical records: one per appointment, written by doctors and admins. The patient and the
 * appointment come from the appointments service, the doctor's name from the auth service, the
 * form's rules from the config service — never from the client's body. Prices are computed here.
 */
export class RecordService {
  constructor(
    private readonly records: RecordRepository,
    private readonly appointments: AppointmentSource,
    private readonly staff: StaffDirectory,
    private readonly configs: ViewConfigSource,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async create(
    caller: Caller,
    input: { userId: string; dateId: string; metadata: MetadataInput },
  ): Promise<ClinicalRecord> {
    const [appointment, config, doctorName] = await Promise.all([
      this.appointments.find(input.dateId, caller),
      this.configs.current(RECORDS_VIEW, caller),
      this.staff.nameOf(caller),
    ]);
    if (!appointment) throw fieldError(400, 'dateId', messages.appointmentNotFound);
    if (appointment.patientId !== input.userId)
      throw fieldError(400, 'userId', messages.appointmentOfAnotherPatient);
    if (ENDED_STATUSES.has(appointment.status))
      throw conflict(messages.appointmentEnded, [{ message: messages.appointmentEnded, field: 'dateId' }]);
    // A patient who did not come had no check-up: a record would bill a visit that never happened.
    if (appointment.status === 'noShow')
      throw conflict(messages.appointmentNoShow, [{ message: messages.appointmentNoShow, field: 'dateId' }]);
    if (await this.records.findById(appointment.id)) throw alreadyRecorded();

    const now = this.clock();
    const record: ClinicalRecord = {
      id: appointment.id,
      userId: appointment.patientId,
      dateId: appointment.id,
      doctor: { id: caller.id, name: doctorName },
      user: { name: appointment.patientName },
      date: { date: appointment.date },
      metadata: checkedMetadata(config.fields, input.metadata, { anchorDate: appointment.date }),
      configVersion: config.version,
      view: config.view,
      revision: 1,
      updatedBy: { id: caller.id },
      createdAt: now,
      updatedAt: now,
    };
    if (
      !(await this.records.save(
        record,
        createEnvelope(recordCreated, recordReference(record), correlationIdOrNew()),
      ))
    )
      throw alreadyRecorded();
    return record;
  }

  /**
   * Merges the given fields over the stored ones, validates and prices the whole record again
   * against the current configuration, and stores it as the next revision. Stored fields that
   * configuration no longer has are kept as they are: a form change never deletes clinical data.
   * Two updates at once: the second one is merged over the first, never lost.
   */
  async update(caller: Caller, id: string, metadata: MetadataInput): Promise<ClinicalRecord> {
    const config = await this.configs.current(RECORDS_VIEW, caller);
    const known = new Set(config.fields.map((field) => field.name));
    for (let attempt = 0; attempt < MAX_UPDATE_ATTEMPTS; attempt++) {
      const current = await this.records.findById(id);
      if (!current) throw notFound(messages.recordNotFound);
      const checked = checkedMetadata(config.fields, metadata, {
        anchorDate: current.date.date,
        previous: current.metadata,
      });
      const retired = Object.fromEntries(
        Object.entries(current.metadata).filter(([name]) => !known.has(name)),
      );
      const next: ClinicalRecord = {
        ...current,
        metadata: { ...retired, ...checked },
        configVersion: config.version,
        revision: current.revision + 1,
        updatedBy: { id: caller.id },
        updatedAt: this.clock(),
      };
      if (
        await this.records.save(
          next,
          createEnvelope(recordUpdated, recordReference(next), correlationIdOrNew()),
        )
      )
        return next;
    }
    throw conflict(messages.busy);
  }

  /** `GET /records/mine`: a patient's own records (the export of their data). */
  mine(patientId: string): Promise<ClinicalRecord[]> {
    return this.records.listOfPatient(patientId);
  }

  async get(id: string): Promise<ClinicalRecord> {
    const record = await this.records.findById(id);
    if (!record) throw notFound(messages.recordNotFound);
    return record;
  }

  /** The record of an appointment, if it has one (its id is the appointment's id, see `create`). */
  async ofAppointment(dateId: string): Promise<ClinicalRecord | undefined> {
    return this.records.findById(dateId);
  }

  list(
    query: RecordPageQuery,
  ): Promise<{ items: ClinicalRecord[]; total: number; totalIsEstimate: boolean }> {
    return this.records.list(query);
  }
}
