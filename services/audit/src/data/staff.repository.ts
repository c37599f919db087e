import type { AuditActorRole } from '@crm/contracts';
import { isDuplicateKey } from '@crm/server-kit';
import type { StaffDirectory } from '../domain/audit-entry';
import type { AuditModels } from './audit.models';

/** The staff directory read model (`staff`): `{id, name, rol}` of staff and kiosk accounts. */
export class MongoStaffDirectory implements StaffDirectory {
  constructor(private readonly models: AuditModels) {}

  async names(ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const docs = await this.models.Staff.find({ _id: { $in: [...ids] } }, { name: 1 }).lean<
      Array<{ _id: string; name: string }>
    >();
    return new Map(docs.map((doc) => [doc._id, doc.name]));
  }

  async save(member: { id: string; name: string; rol: AuditActorRole }, asOf: Date): Promise<boolean> {
    try {
      // Matches only an older version (or nothing, then inserts); a newer stored version makes the
      // upsert collide on _id, which is the signal to keep what is stored.
      await this.models.Staff.updateOne(
        { _id: member.id, asOf: { $lt: asOf } },
        { $set: { name: member.name, rol: member.rol, asOf } },
        { upsert: true },
      );
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }
}
