import { Types } from 'mongoose';
import { personSearched, type EventEnvelope } from '@crm/contracts';
import { withOutbox, withOutboxUpdate } from '@crm/event-bus';
import { inBatches, readPage, SearchKeysBackfill, searchedPage } from '@crm/server-kit/service';
import {
  EmailTakenError,
  type NewUser,
  type User,
  type UserChanges,
  type UserPageQuery,
  type UserRepository,
} from '../domain/user';
import { byNameThenId, PatientList } from './patient-list';
import { userSearchKeys, type UserDocument, type UserModels } from './user.model';

/** The reserved address of an erased account (`erasedEmail` of @crm/contracts), as a query. */
export const ERASED_ADDRESS = /@erased\.invalid$/i;

function toUser(doc: UserDocument): User {
  return {
    id: String(doc._id),
    name: doc.name,
    email: doc.email,
    ...(doc.phone ? { phone: doc.phone } : {}),
    rol: doc.rol,
    ...(doc.passwordHash ? { passwordHash: doc.passwordHash } : {}),
    confirmed: doc.confirmed,
    ...(doc.confirmationTokenHash ? { confirmationTokenHash: doc.confirmationTokenHash } : {}),
    ...(doc.confirmationExpiresAt ? { confirmationExpiresAt: doc.confirmationExpiresAt } : {}),
    ...(doc.resetTokenHash ? { resetTokenHash: doc.resetTokenHash } : {}),
    ...(doc.resetExpiresAt ? { resetExpiresAt: doc.resetExpiresAt } : {}),
    ...(doc.sessionsValidAfter ? { sessionsValidAfter: doc.sessionsValidAfter } : {}),
    ...(doc.disabled ? { disabled: true } : {}),
    ...(doc.mfaSecret ? { mfaSecret: doc.mfaSecret } : {}),
    ...(doc.mfaPendingSecret ? { mfaPendingSecret: doc.mfaPendingSecret } : {}),
    ...(doc.mfaRecoveryHashes?.length ? { mfaRecoveryHashes: [...doc.mfaRecoveryHashes] } : {}),
    createdAt: doc.createdAt,
  };
}

const isDuplicateKey = (error: unknown) => (error as { code?: number }).code === 11000;

/** Users in MongoDB. Each write carries its events in the document's outbox, then wakes the relay. */
export class MongoUserRepository implements UserRepository {
  constructor(
    private readonly models: UserModels,
    private readonly outboxWritten: () => void,
    clock?: () => Date,
  ) {
    this.patients = new PatientList(models, clock);
    this.searchKeys = new SearchKeysBackfill<UserDocument>(
      models.User.collection,
      { name: 1, email: 1, phone: 1 },
      userSearchKeys,
    );
  }

  /** The search keys of accounts made before they had them (a background pass fills them). */
  readonly searchKeys: SearchKeysBackfill<UserDocument>;

  /** The patient list's order (a background pass keeps it in step with the other replicas). */
  readonly patients: PatientList;

  async create(user: NewUser, events: (id: string) => EventEnvelope[]): Promise<User> {
    const _id = new Types.ObjectId();
    if (user.rol === 'PACIENT') await this.patients.marked([String(_id)]);
    try {
      const doc = await this.models.User.create(
        withOutbox({ _id, ...user, searchKeys: userSearchKeys(user) }, ...events(String(_id))),
      );
      this.outboxWritten();
      return toUser(doc.toObject() as UserDocument);
    } catch (error) {
      if (isDuplicateKey(error)) throw new EmailTakenError();
      throw error;
    }
  }

  async findById(id: string): Promise<User | undefined> {
    if (!Types.ObjectId.isValid(id)) return undefined;
    const doc = await this.models.User.findById(id).lean<UserDocument>();
    return doc ? toUser(doc) : undefined;
  }

  async findByEmail(email: string): Promise<User | undefined> {
    const doc = await this.models.User.findOne({ email: email.toLowerCase() }).lean<UserDocument>();
    return doc ? toUser(doc) : undefined;
  }

  async findByConfirmationTokenHash(hash: string): Promise<User | undefined> {
    const doc = await this.models.User.findOne({ confirmationTokenHash: hash }).lean<UserDocument>();
    return doc ? toUser(doc) : undefined;
  }

  async update(id: string, changes: UserChanges, events: EventEnvelope[]): Promise<User | undefined> {
    if ('name' in changes || 'email' in changes || 'rol' in changes) await this.patients.marked([id]);
    const $set = { ...changes, ...(await this.searchKeysAfter(id, changes)) };
    const doc = await this.models.User.findByIdAndUpdate(
      id,
      events.length ? withOutboxUpdate({ $set }, ...events) : { $set },
      { returnDocument: 'after' },
    ).lean<UserDocument>();
    if (events.length) this.outboxWritten();
    return doc ? toUser(doc) : undefined;
  }

  /** New search keys when `changes` touch what is searched (the other texts are read first). */
  private async searchKeysAfter(id: string, changes: UserChanges): Promise<{ searchKeys?: string[] }> {
    if (!('name' in changes || 'email' in changes || 'phone' in changes)) return {};
    const current = await this.models.User.findById(id)
      .select({ name: 1, email: 1, phone: 1 })
      .lean<Pick<UserDocument, 'name' | 'email' | 'phone'>>();
    return current ? { searchKeys: userSearchKeys({ ...current, ...changes }) } : {};
  }

  async confirm(
    tokenHash: string,
    now: Date,
    events: (before: User) => EventEnvelope[] = () => [],
  ): Promise<User | undefined> {
    const filter = {
      confirmationTokenHash: tokenHash,
      confirmed: false,
      confirmationExpiresAt: { $gt: now },
    };
    const before = await this.models.User.findOne(filter).lean<UserDocument>();
    if (!before) return undefined;
    const toPublish = events(toUser(before));
    const doc = await this.models.User.findOneAndUpdate(
      filter,
      toPublish.length
        ? withOutboxUpdate({ $set: { confirmed: true } }, ...toPublish)
        : { $set: { confirmed: true } },
      { returnDocument: 'after' },
    ).lean<UserDocument>();
    if (doc && toPublish.length) this.outboxWritten();
    return doc ? toUser(doc) : undefined;
  }

  async resetPassword(
    tokenHash: string,
    passwordHash: string,
    now: Date,
    events: (before: User) => EventEnvelope[] = () => [],
  ): Promise<User | undefined> {
    const holder = await this.models.User.findOne({
      resetTokenHash: tokenHash,
      resetExpiresAt: { $gt: now },
    }).lean<UserDocument>();
    if (!holder) return undefined;
    // Single use is decided by an insert under the unique _id, which is atomic on MongoDB and on
    // FerretDB alike (FerretDB's conditional updates are not: two concurrent resets could both win).
    if (!(await this.consumeOnce(`reset:${tokenHash}`, now))) return undefined;
    const toPublish = events(toUser(holder));
    const update = {
      // Resetting through the e-mailed link also proves the address, so it confirms the account.
      $set: { passwordHash, sessionsValidAfter: now, confirmed: true },
      $unset: { resetTokenHash: 1, resetExpiresAt: 1 },
    };
    const doc = await this.models.User.findByIdAndUpdate(
      holder._id,
      toPublish.length ? withOutboxUpdate(update, ...toPublish) : update,
      { returnDocument: 'after' },
    ).lean<UserDocument>();
    if (toPublish.length) this.outboxWritten();
    return doc ? toUser(doc) : undefined;
  }

  async consumeOnce(key: string, at: Date): Promise<boolean> {
    try {
      await this.models.ConsumedToken.create({ _id: key, consumedAt: at });
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  async page({
    page,
    limit,
    search,
    roles,
    includeErased = false,
  }: UserPageQuery): Promise<{ items: User[]; total: number }> {
    const filter: Record<string, unknown> = {};
    if (roles?.length) filter.rol = { $in: roles };
    // An erased account keeps only its id and a reserved address (see privacy.service.ts).
    if (!includeErased) filter.email = { $not: ERASED_ADDRESS };
    if (search) {
      const { items, total } = await searchedPage<UserDocument>({
        search,
        read: (lookup) => this.models.User.find({ ...lookup, ...filter }).lean<UserDocument[]>(),
        searched: personSearched,
        compare: (a, b) =>
          byNameThenId({ name: a.name, id: String(a._id) }, { name: b.name, id: String(b._id) }),
        page,
        limit,
        useKeys: this.searchKeys.complete,
      });
      return { items: items.map(toUser), total };
    }
    if (roles?.length === 1 && roles[0] === 'PACIENT' && !includeErased) {
      const { ids, total } = await this.patients.page(page, limit);
      const docs = await inBatches(ids, (id) => this.models.User.findById(id).lean<UserDocument>());
      return { items: docs.filter((doc) => doc !== null).map(toUser), total };
    }
    // Filtered (by role, always): counted exactly, through the `rol` index; the total first, since
    // it says from which end a deep page is read (README, "Paging").
    const total = await this.models.User.countDocuments(filter);
    const docs = await readPage<UserDocument>(
      () => this.models.User.find(filter),
      { name: 1, _id: 1 },
      total,
      page,
      limit,
    );
    return { items: docs.map(toUser), total };
  }
}
