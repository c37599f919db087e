import { randomUUID } from 'node:crypto';
import { Types } from 'mongoose';
import { isErasedAddress } from '@crm/contracts';
import { inBatches } from '@crm/server-kit/service';
import type { UserDocument, UserModels } from './user.model';

/** A mark younger than this is read again on every sync: the write it announces may still be under way. */
export const MARK_SETTLE_MS = 60_000;

/** Marks are deleted this long after they were made. */
export const MARK_KEEP_MS = 60 * 60_000;

/**
 * A process that has not synced for this long loads the list again: marks it has not seen may have
 * been deleted meanwhile (`MARK_KEEP_MS`).
 */
export const RELOAD_AFTER_MS = 30 * 60_000;

/** A mark's `userId` that says "load everything again" (a bulk load). */
const EVERYONE = '*';

interface Mark {
  _id: string;
  userId: string;
  at: Date;
}

interface Listed {
  id: string;
  name: string;
}

type Listable = Pick<UserDocument, 'name' | 'email' | 'rol'> & { _id: unknown };

/** The lists' order: by name, then `_id` (MongoDB's order for every name in the basic plane). */
export const byNameThenId = (a: { name: string; id: string }, b: { name: string; id: string }): number =>
  a.name !== b.name ? (a.name < b.name ? -1 : 1) : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

const listed = (doc: Listable): boolean => doc.rol === 'PACIENT' && !isErasedAddress(doc.email);

/**
 * The patient list's order, kept in memory (ids and names: a few MB for 60 000 patients), so a page
 * is ten reads by `_id` and its total exact: FerretDB sorts in memory, and a sorted page of every
 * patient took 1.5 s at 6 000 patients (about 3 s per page at 60 000). Replicas keep in step through
 * marks (`patient_list_marks`, `{_id, userId, at}`): every write that adds, removes, renames or
 * erases an account first inserts a mark of it; a sync reads the marks it has not applied and reads
 * those accounts again. A mark younger than `MARK_SETTLE_MS` is read again on every sync (its write
 * may still be under way); marks are deleted after `MARK_KEEP_MS`, and a process that has not synced
 * for `RELOAD_AFTER_MS` loads the whole list again. A bulk load marks "everyone" (`markedEveryone`).
 */
export class PatientList {
  private order: Listed[] | undefined;
  private readonly names = new Map<string, string>();
  /** Marks applied and old enough not to be read again. */
  private settled = new Set<string>();
  private syncedAt = -Infinity;
  private running: Promise<void> | undefined;
  private queued: Promise<void> | undefined;

  constructor(
    private readonly models: UserModels,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** Before a write that may add, remove, rename or erase these accounts. */
  async marked(userIds: readonly string[]): Promise<void> {
    const at = this.clock();
    await this.models.PatientListMark.insertMany(
      userIds.map((userId) => ({ _id: randomUUID(), userId, at })),
      { ordered: false },
    );
  }

  /** After a bulk load (after its writes, unlike `marked`): every process loads the list again. */
  markedEveryone(): Promise<void> {
    return this.marked([EVERYONE]);
  }

  /** One page in the list's order, and the list's size, as of the sync this call waited for. */
  async page(page: number, limit: number): Promise<{ ids: string[]; total: number }> {
    await this.sync();
    const order = this.order ?? [];
    return { ids: order.slice((page - 1) * limit, page * limit).map(({ id }) => id), total: order.length };
  }

  /**
   * Applies the marks made since the last sync. A call made while a sync is under way waits for the
   * next one (the one under way may have read the marks before the caller's own write).
   */
  sync(): Promise<void> {
    if (!this.running) {
      this.running = this.syncNow().finally(() => (this.running = undefined));
      return this.running;
    }
    const next = () => {
      this.queued = undefined;
      return this.sync();
    };
    this.queued ??= this.running.then(next, next);
    return this.queued;
  }

  /** Deletes the marks older than `MARK_KEEP_MS` (a background pass). */
  async forgetOldMarks(): Promise<number> {
    const before = new Date(this.clock().getTime() - MARK_KEEP_MS);
    return (await this.models.PatientListMark.deleteMany({ at: { $lt: before } })).deletedCount;
  }

  private async syncNow(): Promise<void> {
    const now = this.clock().getTime();
    const marks = await this.models.PatientListMark.find().lean<Mark[]>();
    if (!this.order || now - this.syncedAt > RELOAD_AFTER_MS) return this.reload(marks, now);
    const pending = marks.filter(({ _id }) => !this.settled.has(_id));
    if (pending.some(({ userId }) => userId === EVERYONE)) return this.reload(marks, now);
    const ids = [...new Set(pending.map(({ userId }) => userId))].filter((id) => Types.ObjectId.isValid(id));
    const docs = await inBatches(ids, (id) =>
      this.models.User.findById(id).select({ name: 1, email: 1, rol: 1 }).lean<Listable>(),
    );
    ids.forEach((id, i) => this.apply(id, docs[i]));
    this.remember(marks, now);
  }

  /** Reads every patient (marks first: what is marked after this read is applied by the next sync). */
  private async reload(marks: readonly Mark[], now: number): Promise<void> {
    const docs = await this.models.User.find({ rol: 'PACIENT' })
      .select({ name: 1, email: 1, rol: 1 })
      .lean<Listable[]>();
    const order = docs.filter(listed).map((doc) => ({ id: String(doc._id), name: doc.name }));
    order.sort(byNameThenId);
    this.order = order;
    this.names.clear();
    for (const { id, name } of order) this.names.set(id, name);
    this.remember(marks, now);
  }

  /**
   * Marks old enough are not read again; the others are, by the next sync too. An "everyone" mark
   * is made after its load, so the reload it caused (which read the marks first) covered it.
   */
  private remember(marks: readonly Mark[], now: number): void {
    this.settled = new Set(
      marks
        .filter(({ userId, at }) => userId === EVERYONE || now - at.getTime() >= MARK_SETTLE_MS)
        .map(({ _id }) => _id),
    );
    this.syncedAt = now;
  }

  /** Puts one account where it now belongs (or nowhere: erased, deleted, not a patient). */
  private apply(id: string, doc: Listable | null): void {
    const order = this.order!;
    const before = this.names.get(id);
    if (before !== undefined) {
      order.splice(this.positionOf({ id, name: before }), 1);
      this.names.delete(id);
    }
    if (!doc || !listed(doc)) return;
    const entry = { id, name: doc.name };
    order.splice(this.positionOf(entry), 0, entry);
    this.names.set(id, doc.name);
  }

  /** Where `entry` is, or would go, in the order (binary search). */
  private positionOf(entry: Listed): number {
    const order = this.order!;
    let low = 0;
    let high = order.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (byNameThenId(order[middle]!, entry) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}
