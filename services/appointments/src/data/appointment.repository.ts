import { Types } from 'mongoose';
import type { AppointmentStatus, AppointmentUser, EventEnvelope } from '@crm/contracts';
import { withOutbox } from '@crm/event-bus';
import {
  PatientAlreadyBookedError,
  SlotTakenError,
  type Actor,
  type Appointment,
  type AppointmentPageQuery,
  type AppointmentRepository,
  type NewAppointment,
} from '../domain/appointment';
import { SLOT_MS } from '../domain/slot-rules';
import type { AppointmentDocument, AppointmentModels } from './appointment.model';
import { isDuplicateKey, violatedField } from './duplicate-key';
import { escapeRegex, nameKey } from './name-key';

/** The keys of a final copy: unique to the appointment, so only one final copy can ever be inserted. */
const released = (id: string) => `released:${id}`;

/** Insert attempts when a conflicting holder turns out to be stale (ended, or just freed). */
const MAX_BOOK_ATTEMPTS = 3;

const SORTS = {
  date: { date: 1, _id: 1 },
  '-date': { date: -1, _id: -1 },
  name: { nameKey: 1, date: 1, _id: 1 },
  '-name': { nameKey: -1, date: 1, _id: 1 },
} as const;

function toAppointment(doc: AppointmentDocument): Appointment {
  const { user } = doc;
  return {
    id: doc.appointmentId,
    date: doc.date,
    status: doc.status,
    pacientId: doc.pacientId,
    user: { id: user.id, name: user.name, email: user.email, ...(user.phone ? { phone: user.phone } : {}) },
    bookedBy: { id: doc.bookedBy.id, rol: doc.bookedBy.rol },
    channel: doc.channel,
    walkIn: doc.walkIn,
    createdAt: doc.bookedAt,
  };
}

/** Between an interrupted end's two writes both copies exist; the final one is the truth. */
function preferFinal(docs: AppointmentDocument[]): AppointmentDocument[] {
  const finals = new Set(docs.filter((d) => d.kind === 'final').map((d) => d.appointmentId));
  return docs.filter((d) => d.kind === 'final' || !finals.has(d.appointmentId));
}

/**
 * Appointments in MongoDB or FerretDB, written only with inserts (under unique indexes) and deletes,
 * the two operations both servers perform atomically (see appointment.model.ts for the two kinds of
 * document). No read-then-write check decides anything: the unique indexes do.
 */
export class MongoAppointmentRepository implements AppointmentRepository {
  constructor(
    private readonly models: AppointmentModels,
    private readonly outboxWritten: () => void,
  ) {}

  async book(appointment: NewAppointment, event: (id: string) => EventEnvelope): Promise<Appointment> {
    const _id = new Types.ObjectId();
    const id = String(_id);
    const slotKey = appointment.walkIn ? `walkin:${id}` : appointment.date.toISOString();
    const doc = withOutbox(
      {
        _id,
        appointmentId: id,
        kind: 'active' as const,
        ...appointment,
        status: 'booked' as const,
        nameKey: nameKey(appointment.user.name),
        bookedAt: new Date(),
        slotKey,
        activePatientKey: appointment.pacientId,
      },
      event(id),
    );
    for (let attempt = 1; ; attempt++) {
      try {
        await this.models.Appointment.create(doc);
        this.outboxWritten();
        return toAppointment(doc as unknown as AppointmentDocument);
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
        const refusal = await this.explainConflict(error, slotKey, appointment.pacientId);
        if (refusal !== 'retry') throw refusal;
        if (attempt >= MAX_BOOK_ATTEMPTS) throw new SlotTakenError();
      }
    }
  }

  async end(
    id: string,
    to: AppointmentStatus,
    by: Actor,
    event: (appointment: Appointment) => EventEnvelope,
  ): Promise<Appointment | undefined> {
    const active = await this.activeDocument(id);
    if (!active) return undefined;
    const ended = { ...toAppointment(active), status: to };
    const inserted = await this.insertFinalCopy(active, to, by, [event(ended)]);
    if (!inserted) return undefined;
    this.outboxWritten();
    await this.models.Appointment.deleteOne({ _id: active._id, kind: 'active' });
    return ended;
  }

  async releaseOverHold(appointment: Appointment): Promise<void> {
    const active = await this.activeDocument(appointment.id);
    if (!active) return;
    // Whoever inserts the final copy first, it exists now: the active document may go.
    await this.insertFinalCopy(active, 'booked', undefined, []);
    await this.models.Appointment.deleteOne({ _id: active._id, kind: 'active' });
  }

  async findActiveBefore(cutoff: Date, limit: number): Promise<Appointment[]> {
    const docs = await this.models.Appointment.find({
      kind: 'active',
      date: { $lt: new Date(cutoff.getTime()) },
    })
      .sort({ date: 1 })
      .limit(limit)
      .lean<AppointmentDocument[]>();
    return docs.map(toAppointment);
  }

  async repairInterruptedEnds(): Promise<number> {
    let repaired = 0;
    let lastId: unknown = undefined;
    for (;;) {
      const page = await this.models.Appointment.find({
        kind: 'active',
        ...(lastId ? { _id: { $gt: lastId } } : {}),
      })
        .select({ _id: 1, appointmentId: 1 })
        .sort({ _id: 1 })
        .limit(500)
        .lean<Array<{ _id: unknown; appointmentId: string }>>();
      if (page.length === 0) return repaired;
      lastId = page[page.length - 1]!._id;
      const finals = await this.models.Appointment.find({
        kind: 'final',
        appointmentId: { $in: page.map((d) => d.appointmentId) },
      })
        .select({ appointmentId: 1 })
        .lean<Array<{ appointmentId: string }>>();
      for (const { appointmentId } of finals) {
        const { deletedCount } = await this.models.Appointment.deleteOne({
          _id: appointmentId,
          kind: 'active',
        });
        repaired += deletedCount;
      }
    }
  }

  async refreshPatient(patient: AppointmentUser): Promise<void> {
    // Best effort by nature: the active document's only other writer is the relay's outbox `$pull`,
    // and on FerretDB two concurrent updates of one document can lose one. Check and write again.
    for (let attempt = 1; attempt <= 3; attempt++) {
      const held = await this.models.Appointment.findOne({
        activePatientKey: patient.id,
      }).lean<AppointmentDocument>();
      if (!held || sameSnapshot(toAppointment(held).user, patient)) return;
      await this.models.Appointment.updateOne(
        { _id: held._id, kind: 'active' },
        { $set: { user: patient, nameKey: nameKey(patient.name) } },
      );
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }

  async findById(id: string): Promise<Appointment | undefined> {
    const docs = await this.models.Appointment.find({ appointmentId: id }).lean<AppointmentDocument[]>();
    const [doc] = preferFinal(docs);
    return doc ? toAppointment(doc) : undefined;
  }

  async findHeldBy(pacientId: string): Promise<Appointment | undefined> {
    const doc = await this.models.Appointment.findOne({
      activePatientKey: pacientId,
    }).lean<AppointmentDocument>();
    return doc ? toAppointment(doc) : undefined;
  }

  async listByPatient(pacientId: string, options: { activeAt?: Date } = {}): Promise<Appointment[]> {
    const filter: Record<string, unknown> = { pacientId };
    if (options.activeAt) {
      filter.kind = 'active';
      filter.date = { $gt: new Date(options.activeAt.getTime() - SLOT_MS) };
    }
    const docs = await this.models.Appointment.find(filter)
      .sort({ date: -1, _id: -1 })
      .lean<AppointmentDocument[]>();
    return preferFinal(docs).map(toAppointment);
  }

  async page({
    page,
    limit,
    search,
    sort,
    status,
  }: AppointmentPageQuery): Promise<{ items: Appointment[]; total: number }> {
    const filter: Record<string, unknown> = {};
    if (status !== 'all') filter.status = status;
    if (search) {
      const alternatives: Record<string, RegExp>[] = [
        { nameKey: new RegExp(escapeRegex(nameKey(search))) },
        { 'user.email': new RegExp(escapeRegex(search), 'i') },
      ];
      // Phones are stored as digits only, so "612 34" must find 34612345678.
      const digits = search.replace(/\D/g, '');
      if (digits) alternatives.push({ 'user.phone': new RegExp(digits) });
      filter.$or = alternatives;
    }
    const [docs, total] = await Promise.all([
      this.models.Appointment.find(filter)
        .sort(SORTS[sort])
        .skip((page - 1) * limit)
        .limit(limit)
        .lean<AppointmentDocument[]>(),
      this.models.Appointment.countDocuments(filter),
    ]);
    return { items: docs.map(toAppointment), total };
  }

  async bookedSlotsFrom(from: Date): Promise<Date[]> {
    const docs = await this.models.Appointment.find({ status: 'booked', walkIn: false, date: { $gte: from } })
      .select({ date: 1, _id: 0 })
      .sort({ date: 1 })
      .lean<Array<{ date: Date }>>();
    // An interrupted end can leave a slot listed twice for a moment.
    return [...new Map(docs.map((doc) => [doc.date.getTime(), doc.date])).values()];
  }

  private activeDocument(id: string): Promise<AppointmentDocument | null> {
    if (!Types.ObjectId.isValid(id)) return Promise.resolve(null);
    return this.models.Appointment.findOne({ _id: id, kind: 'active' }).lean<AppointmentDocument>();
  }

  /** True when this call inserted the final copy; false when one existed already. */
  private async insertFinalCopy(
    active: AppointmentDocument,
    status: AppointmentStatus,
    by: Actor | undefined,
    events: EventEnvelope[],
  ): Promise<boolean> {
    const id = active.appointmentId;
    // The active document's pending events are its own: the relay publishes them from there.
    const {
      _id: _activeId,
      outbox: _pending,
      outboxRejected: _rejected,
      ...fields
    } = active as AppointmentDocument & {
      outbox?: unknown;
      outboxRejected?: unknown;
    };
    const copy = {
      ...fields,
      _id: new Types.ObjectId(),
      kind: 'final' as const,
      status,
      slotKey: released(id),
      activePatientKey: released(id),
      endedAt: new Date(),
      ...(by ? { endedBy: { id: by.id, rol: by.rol } } : {}),
    };
    try {
      await this.models.Appointment.create(events.length ? withOutbox(copy, ...events) : copy);
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  /**
   * Why the insert was refused. MongoDB names the index; FerretDB does not, so the holders of both
   * keys are looked up. A holder whose appointment has a final copy is the leftover of an
   * interrupted end: it is removed and the insert retried ('retry'), as when no holder is left.
   */
  private async explainConflict(
    error: unknown,
    slotKey: string,
    pacientId: string,
  ): Promise<Error | 'retry'> {
    const field = violatedField(error, ['slotKey', 'activePatientKey'] as const);
    const [bySlot, byPatient] = await Promise.all([
      field === 'activePatientKey'
        ? null
        : this.models.Appointment.findOne({ slotKey }).lean<AppointmentDocument>(),
      field === 'slotKey'
        ? null
        : this.models.Appointment.findOne({ activePatientKey: pacientId }).lean<AppointmentDocument>(),
    ]);
    for (const holder of [byPatient, bySlot]) {
      if (holder && (await this.repairIfEnded(holder))) return 'retry';
    }
    if (byPatient) return new PatientAlreadyBookedError(toAppointment(byPatient));
    if (bySlot) return new SlotTakenError();
    return 'retry';
  }

  private async repairIfEnded(holder: AppointmentDocument): Promise<boolean> {
    const final = await this.models.Appointment.exists({
      appointmentId: holder.appointmentId,
      kind: 'final',
    });
    if (!final) return false;
    await this.models.Appointment.deleteOne({ _id: holder._id, kind: 'active' });
    return true;
  }
}

const sameSnapshot = (a: AppointmentUser, b: AppointmentUser) =>
  a.name === b.name && a.email === b.email && (a.phone ?? '') === (b.phone ?? '');
