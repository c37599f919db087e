import type { StaffNames, StaffRole, StaffView } from '@crm/contracts';
import { conflict, notFound } from '@crm/server-kit';
import type { AccountService } from './account.service';
import { toUserView, type SessionRevocations, type User, type UserRepository } from './user';

const STAFF: StaffRole[] = ['DOCTOR', 'ADMIN'];
const STAFF_NOT_FOUND = 'Miembro del personal no encontrado';

export const toStaffView = (user: User): StaffView => ({
  ...toUserView(user),
  disabled: Boolean(user.disabled),
  mfaEnabled: Boolean(user.mfaSecret),
  invited: !user.passwordHash,
});

/**
 * Staff accounts managed by an admin (docs/product/back-office.md#staff-accounts): invited by e-mail (the
 * link sets the password), listed, disabled (every session of the account ends at once, everywhere) and
 * enabled again. Only doctors and admins: the kiosk's service account is configured, not managed here.
 */
export class StaffService {
  constructor(
    private readonly users: UserRepository,
    private readonly accounts: AccountService,
    private readonly revocations: SessionRevocations,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async invite(input: { name: string; email: string; rol: StaffRole }): Promise<StaffView> {
    return toStaffView(
      await this.accounts.invite({ name: input.name, email: input.email }, 'staffAccount', input.rol),
    );
  }

  async list(): Promise<StaffView[]> {
    const { items } = await this.users.page({ page: 1, limit: 1000, search: '', roles: STAFF });
    return items.map(toStaffView);
  }

  /** Names only, for any staff member: who holds a reservation, who wrote a record. */
  async names(): Promise<StaffNames['staff']> {
    const { items } = await this.users.page({ page: 1, limit: 1000, search: '', roles: STAFF });
    return items.map((user) => ({ id: user.id, name: user.name, rol: user.rol as StaffRole }));
  }

  /** Disabling ends the account's sessions at once; an admin cannot disable their own account. */
  async setDisabled(adminId: string, id: string, disabled: boolean): Promise<StaffView> {
    const user = await this.users.findById(id);
    if (!user || !STAFF.includes(user.rol as StaffRole)) throw notFound(STAFF_NOT_FOUND);
    if (disabled && user.id === adminId) throw conflict('No puede desactivar su propia cuenta');
    const now = this.clock();
    const updated = await this.users.update(
      id,
      disabled ? { disabled: true, sessionsValidAfter: now } : { disabled: false },
      [],
    );
    if (!updated) throw notFound(STAFF_NOT_FOUND);
    if (disabled) await this.revocations.invalidateSessionsBefore(id, new Date(now.getTime() + 1000));
    return toStaffView(updated);
  }
}
