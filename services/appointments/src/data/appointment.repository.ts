import { centreDayOf, personSearched } from '@crm/contracts';
import { Types } from 'mongoose';
import type { AppointmentUser, EventEnvelope } from '@crm/contracts';
import { isDuplicateKey, violatedField } from '@crm/server-kit';
import { readPage, SearchKeysBackfill, searchedPage, UPDATES_PER_COMMAND } from '@crm/server-kit/service';
import {
  PatientAlreadyBookedError,
  SlotTakenError,
  type Appointment,
  type AppointmentPageQuery,
  type AppointmentRepository,
  type Booked,
  type NewAppointment,
} from '../domain/appointment';
import { newBookingCode, type BookingCodes } from '../domain/booking-code';
import { centreDayRange } from '../domain/lifecycle.rules';
import { activeDocument, codeFields, currentOf, patientKeys, toAppointment } from './appointment.documents';
import { AppointmentDays } from './appointment-days';
import { codeTaken, MAX_CODE_DRAWS } from './booking-codes';
import { documentsOfAppointments, eachEquality } from './equality-reads';
import { comparatorOf, LIVE_STATUSES, readLiveList } from './live-list';
import type { AppointmentDocument, AppointmentModels } from './appointment.model';

/** Insert attempts when a conflicting holder turns out to be stale (ended, or just freed). */
const MAX_BOOK_ATTEMPTS = 3;

/** How long the unfiltered list's total is reused (it is shown as approximate). */
const WHOLE_LIST_TOTAL_TTL_MS = 60_000;

/** Documents given their `day` per backfill call. */
const DAY_BACKFILL_BATCH = 2_000;

/** By start, then booking time; each appointment once, as it is now (`currentOf`). */
function inTimeOrder(docs: AppointmentDocument[]): Appointment[] {
  docs.sort((a, b) => a.date.getTime() - b.date.getTime() || a.bookedAt.getTime() - b.bookedAt.getTime());
  return currentOf(docs);
}

/** An appointment as the list shows it: an active one with a check-in is `checkedIn`. */
function asListed(doc: AppointmentDocument, checkIns: Map<string, Date>): Appointment {
  const checkedInAt = doc.kind === 'active' ? checkIns.get(doc.appointmentId) : undefined;
  return checkedInAt ? { ...toAppointment(doc), status: 'checkedIn', checkedInAt } : toAppointment(doc);
}

/** Every kind of document: a condition on it lets a date range use the `kind, date` index. */
const ALL_KINDS = ['active', 'checkin', 'final', 'hold', 'offer'] as const;

/** Each ends with `_id`: a total order, so a deep page can be read backwards from the end. */
const SORTS: Record<AppointmentPageQuery['sort'], Record<string, 1 | -1>> = {
  date: { date: 1, _id: 1 },
  '-date': { date: -1, _id: -1 },
  name: { nameKey: 1, date: 1, _id: 1 },
  '-name': { nameKey: -1, date: 1, _id: 1 },
};

/**
 * Appointments in MongoDB or FerretDB, written only with inserts (under unique indexes) and deletes,
 * the two operations both servers perform atomically (see appointment.model.ts for the two kinds of
 * document). No read-then-write check decides anything: the unique indexes do.
 */
export class MongoAppointmentRepository implements AppointmentRepository {
  constructor(
    private readonly models: AppointmentModels,
    private readonly outboxWritten: () => void,
    private readonly codes: BookingCodes = newBookingCode,
  ) {
    this.days = new AppointmentDays(models);
    this.searchKeys = new SearchKeysBackfill<AppointmentDocument>(
      models.Appointment.collection,
      { user: 1 },
      (doc) => patientKeys(doc.user).searchKeys,
    );
  }

  /** The search keys of documents made before they had them (a start-up task fills them). */
  readonly searchKeys: SearchKeysBackfill<AppointmentDocument>;

  /** The list of every appointment, a day at a time (its background count runs on this). */
  readonly days: AppointmentDays;
  /** The unfiltered list's total, as last counted (see `wholeListTotal`). */
  private wholeList?: { at: number; total: Promise<number> };
  /** Set once `fillMissingDays` found no document without `day`: the agenda then reads by it. */
  private everyDocumentHasDay = false;

  newId(): string {
    return String(new Types.ObjectId());
  }

  async book(
    appointment: NewAppointment,
    event: (booked: Booked) => EventEnvelope,
    options: { id?: string } = {},
  ): Promise<Appointment> {
    const id = options.id ?? this.newId();
    await this.days.markedOn(appointment.date);
    let draws = 0;
    for (let attempt = 1; ;) {
      const bookingCode = this.codes();
      const doc = activeDocument(appointment, id, bookingCode, event({ id, bookingCode }));
      try {
        await this.models.Appointment.create(doc);
        this.outboxWritten();
        return toAppointment(doc as unknown as AppointmentDocument);
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
        // Another live appointment has that code (rare: about 1 in 150 million per live one): draw again.
        if (await codeTaken(this.models, error, bookingCode)) {
          if (++draws >= MAX_CODE_DRAWS) throw error;
          continue;
        }
        const refusal = await this.explainConflict(error, doc.slotKey, appointment.patientId);
        if (refusal !== 'retry') throw refusal;
        if (++attempt > MAX_BOOK_ATTEMPTS) throw new SlotTakenError();
      }
    }
  }

  async codeHolder(patientId: string, bookingCode: string): Promise<AppointmentUser | undefined> {
    // The code of the patient's live appointment: the one holding the patient key.
    const held = await this.models.Appointment.findOne({ activePatientKey: patientId, codeKey: bookingCode })
      .select({ user: 1 })
      .lean<Pick<AppointmentDocument, 'user'>>();
    if (!held) return undefined;
    const { id, name, email, phone } = held.user;
    return { id, name, email, ...(phone ? { phone } : {}) };
  }

  async assignMissingCodes(): Promise<number> {
    let given = 0;
    // An update of an active document may lose a race with the relay's outbox `$pull` on FerretDB
    // (README, "Concurrency design"), so look again until none is left without a code.
    for (let pass = 1; pass <= 5; pass++) {
      const missing = await this.models.Appointment.find({
        kind: { $in: ['active', 'hold', 'offer'] },
        codeKey: { $exists: false },
      })
        .select({ _id: 1 })
        .lean<Array<{ _id: unknown }>>();
      if (missing.length === 0) return given;
      for (const { _id } of missing) if (await this.giveCode(_id)) given++;
    }
    return given;
  }

  /** One document gets a fresh code (a code taken meanwhile: another draw). */
  private async giveCode(_id: unknown): Promise<boolean> {
    for (let draw = 1; draw <= MAX_CODE_DRAWS; draw++) {
      const bookingCode = this.codes();
      try {
        const { modifiedCount } = await this.models.Appointment.updateOne(
          { _id, codeKey: { $exists: false } },
          { $set: codeFields(bookingCode) },
        );
        return modifiedCount > 0;
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
      }
    }
    return false;
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
        { $set: { user: patient, ...patientKeys(patient) } },
      );
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }

  async findById(id: string): Promise<Appointment | undefined> {
    const docs = await this.models.Appointment.find({ appointmentId: id }).lean<AppointmentDocument[]>();
    return currentOf(docs)[0];
  }

  async findHeldBy(patientId: string): Promise<Appointment | undefined> {
    const held = await this.models.Appointment.findOne({
      activePatientKey: patientId,
    }).lean<AppointmentDocument>();
    return held ? this.findById(held.appointmentId) : undefined;
  }

  async listByPatient(patientId: string): Promise<Appointment[]> {
    const docs = await this.models.Appointment.find({ pacientId: patientId })
      .sort({ date: -1, _id: -1 })
      .lean<AppointmentDocument[]>();
    return currentOf(docs);
  }

  async listBetween(from: Date, to: Date): Promise<Appointment[]> {
    const docs = await eachEquality(ALL_KINDS, (kind) =>
      this.models.Appointment.find({ kind, date: { $gte: from, $lt: to } }).lean<AppointmentDocument[]>(),
    );
    return inTimeOrder(docs);
  }

  async listOnDay(day: string): Promise<Appointment[]> {
    if (!this.everyDocumentHasDay) {
      const { from, to } = centreDayRange(day);
      return this.listBetween(from, to);
    }
    return inTimeOrder(await this.models.Appointment.find({ day }).lean<AppointmentDocument[]>());
  }

  /**
   * Gives `day` to up to `limit` documents made before it existed, in update commands of
   * `UPDATES_PER_COMMAND`; returns how many. Once a call finds none left, `listOnDay` reads by
   * day. (Each call reads the documents without one: a scan on FerretDB, an index lookup on
   * MongoDB; once there are none, calls cost nothing.)
   */
  async fillMissingDays(limit = DAY_BACKFILL_BATCH): Promise<number> {
    if (this.everyDocumentHasDay) return 0;
    const missing = await this.models.Appointment.find({ day: { $exists: false } })
      .select({ date: 1 })
      .limit(limit)
      .lean<Array<{ _id: unknown; date: Date }>>();
    await this.days.pages.marked(missing.map((doc) => centreDayOf(doc.date)));
    for (let i = 0; i < missing.length; i += UPDATES_PER_COMMAND)
      await this.models.Appointment.bulkWrite(
        missing.slice(i, i + UPDATES_PER_COMMAND).map((doc) => ({
          updateOne: {
            filter: { _id: doc._id, day: { $exists: false } },
            update: { $set: { day: centreDayOf(doc.date) } },
          },
        })),
        { ordered: false },
      );
    if (missing.length === 0) this.everyDocumentHasDay = true;
    return missing.length;
  }

  async page(
    query: AppointmentPageQuery,
  ): Promise<{ items: Appointment[]; total: number; totalIsEstimate: boolean }> {
    const { page, limit, search, sort, status, endedFrom } = query;
    if (LIVE_STATUSES.has(status) && this.everyDocumentHasDay) {
      const { docs, checkIns } = await readLiveList(this.models, query, SORTS[sort]);
      return {
        items: docs.slice((page - 1) * limit, page * limit).map((doc) => asListed(doc, checkIns)),
        total: docs.length,
        totalIsEstimate: false,
      };
    }
    if (status === 'all' && !search && sort.endsWith('date') && this.everyDocumentHasDay) {
      const listing = await this.days.pages.listing();
      // A backlog of days to count (more than a read loads itself): the sorted read below.
      if (listing) {
        const { rows, total } = await this.days.pages.page(listing, page, limit, {
          oldestFirst: sort === 'date',
        });
        return this.listed(rows, total, false);
      }
    }
    // Check-in documents are not listed: an active document with one is shown as checkedIn.
    const clauses: Record<string, unknown>[] = [{ kind: { $in: ['active', 'final'] } }];
    if (status === 'booked' || status === 'checkedIn') {
      const checkedIn = [...(await this.checkedInNow()).keys()];
      clauses.push(
        status === 'booked'
          ? {
              $or: [
                { kind: 'final', status },
                { kind: 'active', appointmentId: { $nin: checkedIn } },
              ],
            }
          : { kind: 'active', appointmentId: { $in: checkedIn } },
      );
    } else if (status === 'current') {
      clauses.push({
        $or: [
          { kind: 'active' },
          {
            kind: 'final',
            status: { $in: ['attended', 'noShow'] },
            ...(endedFrom ? { date: { $gte: endedFrom } } : {}),
          },
        ],
      });
    } else if (status !== 'all') clauses.push({ status });
    if (search) {
      const { items, total } = await searchedPage<AppointmentDocument>({
        search,
        read: (lookup) =>
          this.models.Appointment.find({ ...lookup, $and: clauses }).lean<AppointmentDocument[]>(),
        searched: (doc) => personSearched(doc.user),
        compare: comparatorOf(SORTS[sort]),
        page,
        limit,
        useKeys: this.searchKeys.complete,
      });
      return this.listed(items, total, false);
    }
    const filter = { $and: clauses };
    // A filtered list is counted exactly (through its index); the whole list (every appointment
    // of the centre's history) is counted at most once a minute and said to be approximate.
    const whole = clauses.length === 1;
    const total = whole ? await this.wholeListTotal() : await this.models.Appointment.countDocuments(filter);
    const docs = await readPage<AppointmentDocument>(
      () => this.models.Appointment.find(filter),
      SORTS[sort],
      total,
      page,
      limit,
      // A reused total may be behind: the whole list's pages are read forwards (README, "Paging").
      { fromEnd: !whole },
    );
    return this.listed(docs, total, whole);
  }

  /** A page's documents as listed: an active one with a check-in is shown as checked in. */
  private async listed(docs: AppointmentDocument[], total: number, totalIsEstimate: boolean) {
    const checkIns = await this.checkInsOf(
      docs.filter((d) => d.kind === 'active').map((d) => d.appointmentId),
    );
    return { items: docs.map((doc) => asListed(doc, checkIns)), total, totalIsEstimate };
  }

  /**
   * How many appointments the unfiltered list holds (active and final documents), counted at most
   * once per `WHOLE_LIST_TOTAL_TTL_MS` per replica; concurrent requests share one count. Not the
   * collection's size: check-in copies (one per attended appointment) are in it and not listed.
   */
  private wholeListTotal(): Promise<number> {
    const now = Date.now();
    if (!this.wholeList || now - this.wholeList.at >= WHOLE_LIST_TOTAL_TTL_MS) {
      const total = this.models.Appointment.countDocuments({ kind: { $in: ['active', 'final'] } }).exec();
      this.wholeList = { at: now, total };
      total.catch(() => {
        if (this.wholeList?.total === total) this.wholeList = undefined;
      });
    }
    return this.wholeList.total;
  }

  async bookedSlotsFrom(from: Date): Promise<Date[]> {
    // Slots held by a move under way or offered to the waiting list are not free either.
    const docs = await eachEquality(['active', 'hold', 'offer'] as const, (kind) =>
      this.models.Appointment.find({ kind, walkIn: false, date: { $gte: from } })
        .select({ date: 1, _id: 0 })
        .lean<Array<{ date: Date }>>(),
    );
    return docs.map((doc) => doc.date).sort((a, b) => a.getTime() - b.getTime());
  }

  /**
   * The appointments checked in and still active, with their check-in times. Every such check-in is
   * not older than the oldest active appointment (the sweep keeps both few: it ends what is past).
   */
  private async checkedInNow(): Promise<Map<string, Date>> {
    const oldest = await this.models.Appointment.findOne({ kind: 'active' })
      .sort({ date: 1 })
      .select({ date: 1 })
      .lean<{ date: Date }>();
    if (!oldest) return new Map();
    const checkIns = await this.models.Appointment.find({ kind: 'checkin', date: { $gte: oldest.date } })
      .select({ appointmentId: 1 })
      .lean<Array<{ appointmentId: string }>>();
    return this.checkInsOf(
      checkIns.map((c) => c.appointmentId),
      true,
    );
  }

  /** Check-in times of these appointments (with `activeOnly`, of those still active). */
  private async checkInsOf(ids: string[], activeOnly = false): Promise<Map<string, Date>> {
    if (ids.length === 0) return new Map();
    const [checkIns, active] = await Promise.all([
      documentsOfAppointments<{ appointmentId: string; checkedInAt: Date }>(this.models, ids, {
        filter: { kind: 'checkin' },
        select: { appointmentId: 1, checkedInAt: 1 },
      }),
      activeOnly
        ? documentsOfAppointments<{ appointmentId: string }>(this.models, ids, {
            filter: { kind: 'active' },
            select: { appointmentId: 1 },
          })
        : undefined,
    ]);
    const stillActive = active && new Set(active.map((a) => a.appointmentId));
    return new Map(
      checkIns
        .filter((c) => !stillActive || stillActive.has(c.appointmentId))
        .map((c) => [c.appointmentId, c.checkedInAt]),
    );
  }

  /**
   * Why the insert was refused. MongoDB names the index; FerretDB does not, so the holders of both
   * keys are looked up. A holder whose appointment has a final copy is the leftover of an
   * interrupted end: it is removed and the insert retried ('retry'), as when no holder is left.
   */
  private async explainConflict(
    error: unknown,
    slotKey: string,
    patientId: string,
  ): Promise<Error | 'retry'> {
    const field = violatedField(error, ['slotKey', 'activePatientKey'] as const);
    const [bySlot, byPatient] = await Promise.all([
      field === 'activePatientKey'
        ? null
        : this.models.Appointment.findOne({ slotKey }).lean<AppointmentDocument>(),
      field === 'slotKey'
        ? null
        : this.models.Appointment.findOne({ activePatientKey: patientId }).lean<AppointmentDocument>(),
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
