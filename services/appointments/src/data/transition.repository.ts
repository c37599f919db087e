import { Types } from 'mongoose';
import type { EventEnvelope } from '@crm/contracts';
import { isDuplicateKey } from '@crm/server-kit';
import type {
  Actor,
  Appointment,
  Ending,
  PendingReplacement,
  TransitionRepository,
  UnconfirmedHolds,
} from '../domain/appointment';
import { copyOf, currentOf, keys, pendingEvents, toAppointment } from './appointment.documents';
import type { AppointmentDocument, AppointmentModels } from './appointment.model';
import { documentsOfAppointments } from './equality-reads';

const PAGE = 500;

/**
 * The lifecycle writes, insert/delete-only (README, "Concurrency design"; keys in
 * appointment.documents.ts):
 *
 * - check-in = insert the check-in document (`checkin:A`, `released:A`);
 * - end = insert the final copy (`released:A`, and `released:A` or `ended:A` by the status it leaves),
 *   then delete the active document.
 *
 * Each write is one insert that the unique indexes let through for exactly one of several concurrent
 * callers; a caller whose insert is refused gets undefined and looks again.
 */
export class MongoTransitionRepository implements TransitionRepository, UnconfirmedHolds {
  constructor(
    private readonly models: AppointmentModels,
    private readonly outboxWritten: () => void,
  ) {}

  async checkIn(
    seen: Appointment,
    at: Date,
    by: Actor,
    event: (appointment: Appointment) => EventEnvelope,
  ): Promise<Appointment | undefined> {
    if (seen.status !== 'booked') return undefined;
    const active = await this.activeDocument(seen.id);
    if (!active) return undefined;
    const checkedIn: Appointment = { ...toAppointment(active), status: 'checkedIn', checkedInAt: at };
    const marker = copyOf(
      active,
      {
        kind: 'checkin',
        status: 'checkedIn',
        checkedInAt: at,
        checkedInBy: { id: by.id, rol: by.rol },
        slotKey: keys.checkIn(seen.id),
        activePatientKey: keys.released(seen.id),
      },
      [event(checkedIn)],
    );
    if (!(await this.insert(marker))) return undefined;
    return checkedIn;
  }

  async end(
    seen: Appointment,
    ending: Ending,
    event: (appointment: Appointment) => EventEnvelope,
  ): Promise<Appointment | undefined> {
    if (seen.status !== 'booked' && seen.status !== 'checkedIn') return undefined;
    const active = await this.activeDocument(seen.id);
    if (!active) return undefined;
    const id = seen.id;
    const ended: Appointment = {
      ...toAppointment(active),
      status: ending.to,
      ...(seen.checkedInAt ? { checkedInAt: seen.checkedInAt } : {}),
      endedAt: ending.at,
      ...(ending.rescheduledTo ? { rescheduledTo: ending.rescheduledTo } : {}),
      ...(ending.refundable !== undefined ? { refundable: ending.refundable } : {}),
    };
    const final = copyOf(
      active,
      {
        kind: 'final',
        status: ending.to,
        slotKey: keys.released(id),
        // Leaving `booked` takes the key a check-in takes: one or the other, never both.
        activePatientKey: seen.status === 'booked' ? keys.released(id) : keys.endedAfterCheckIn(id),
        endedAt: ending.at,
        ...(ending.by ? { endedBy: { id: ending.by.id, rol: ending.by.rol } } : {}),
        ...(seen.checkedInAt ? { checkedInAt: seen.checkedInAt } : {}),
        ...(ending.recordId ? { recordId: ending.recordId } : {}),
        ...(ending.replacement ? { replacement: ending.replacement } : {}),
        ...(ending.rescheduledTo ? { rescheduledTo: ending.rescheduledTo } : {}),
        ...(ending.refundable !== undefined ? { refundable: ending.refundable } : {}),
      },
      [...pendingEvents(active), event(ended)],
    );
    if (!(await this.insert(final))) return undefined;
    // Ended now; deleting the active document frees slot and patient (housekeeping, if this fails).
    await this.models.Appointment.deleteOne({ _id: active._id, kind: 'active' });
    return ended;
  }

  /** Web bookings by patients (booked, not checked in) made before `bookedBefore` or starting before `startsBefore`. */
  async candidates(bookedBefore: Date, startsBefore: Date): Promise<Appointment[]> {
    const docs = await this.models.Appointment.find({
      kind: 'active',
      channel: 'patient',
      $or: [{ bookedAt: { $lt: bookedBefore } }, { date: { $lt: startsBefore } }],
    })
      .limit(PAGE)
      .lean<AppointmentDocument[]>();
    if (docs.length === 0) return [];
    const related = await documentsOfAppointments(
      this.models,
      docs.map((d) => d.appointmentId),
    );
    return currentOf(related).filter((a) => a.status === 'booked');
  }

  async findActiveBefore(cutoff: Date): Promise<Appointment[]> {
    const found: Appointment[] = [];
    let after: { date: Date; _id: unknown } | undefined;
    for (;;) {
      const filter: Record<string, unknown> = { kind: 'active', date: { $lt: cutoff } };
      if (after) filter.$or = [{ date: { $gt: after.date } }, { date: after.date, _id: { $gt: after._id } }];
      const page = await this.models.Appointment.find(filter)
        .sort({ date: 1, _id: 1 })
        .limit(PAGE)
        .lean<AppointmentDocument[]>();
      if (page.length === 0) return found;
      after = page[page.length - 1]!;
      const related = await documentsOfAppointments(
        this.models,
        page.map((doc) => doc.appointmentId),
      );
      found.push(...currentOf(related).filter((a) => a.status === 'booked' || a.status === 'checkedIn'));
    }
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
        .limit(PAGE)
        .lean<Array<{ _id: unknown; appointmentId: string }>>();
      if (page.length === 0) return repaired;
      lastId = page[page.length - 1]!._id;
      const finals = await documentsOfAppointments<{ appointmentId: string }>(
        this.models,
        page.map((d) => d.appointmentId),
        { filter: { kind: 'final' }, select: { appointmentId: 1 } },
      );
      for (const { appointmentId } of finals) {
        const { deletedCount } = await this.models.Appointment.deleteOne({
          _id: appointmentId,
          kind: 'active',
        });
        repaired += deletedCount;
      }
    }
  }

  async pendingReplacements(from: Date, to: Date): Promise<PendingReplacement[]> {
    const swapped = await this.models.Appointment.find({
      kind: 'final',
      endedAt: { $gte: from, $lt: to },
      'replacement.id': { $exists: true },
    }).lean<AppointmentDocument[]>();
    if (swapped.length === 0) return [];
    const walkInIds = swapped.map((doc) => doc.replacement!.id);
    const written = await documentsOfAppointments<{ appointmentId: string }>(this.models, walkInIds, {
      select: { appointmentId: 1 },
    });
    const exists = new Set(written.map((doc) => doc.appointmentId));
    return swapped
      .filter((doc) => !exists.has(doc.replacement!.id))
      .map((doc) => {
        const { id, date, bookedBy } = doc.replacement!;
        return {
          replaced: toAppointment(doc),
          walkIn: { id, date, bookedBy: { id: bookedBy.id, rol: bookedBy.rol } },
        };
      });
  }

  private activeDocument(id: string): Promise<AppointmentDocument | null> {
    if (!Types.ObjectId.isValid(id)) return Promise.resolve(null);
    return this.models.Appointment.findOne({ _id: id, kind: 'active' }).lean<AppointmentDocument>();
  }

  /** True when this call inserted it; false when a unique key was taken (someone else came first). */
  private async insert(doc: object): Promise<boolean> {
    try {
      await this.models.Appointment.create(doc);
      this.outboxWritten();
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }
}
