import { userRegistered, userUpdated, type Role } from '@crm/contracts';
import { on } from '@crm/event-bus';
import type { StaffDirectory } from '../domain/audit-entry';

/** Names of staff and kiosk accounts from the auth service's events; patients are not kept. */
export function staffDirectoryHandlers(staff: StaffDirectory) {
  const apply = async (person: { id: string; name: string; rol: Role }, occurredAt: string) => {
    if (person.rol === 'PACIENT') return;
    await staff.save({ id: person.id, name: person.name, rol: person.rol }, new Date(occurredAt));
  };
  return [
    on(userRegistered, (event) => apply(event.data, event.occurredAt)),
    on(userUpdated, (event) => apply(event.data, event.occurredAt)),
  ] as const;
}
