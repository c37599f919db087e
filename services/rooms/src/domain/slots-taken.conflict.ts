import type { RoomSlotsTakenBody } from '@crm/contracts';
import { HttpError } from '@crm/server-kit';
import { formatLocal } from './room-slots';

export const SLOTS_TAKEN_MESSAGE = 'Alguno de los horarios seleccionados ya está reservado';

/** 409 whose body also lists the taken slots, so the calendar can mark them without another call. */
export class SlotsTakenConflict extends HttpError {
  readonly taken: string[];

  constructor(taken: readonly Date[]) {
    super(
      409,
      SLOTS_TAKEN_MESSAGE,
      taken.map((instant) => ({ message: `Horario ya reservado: ${formatLocal(instant)}`, field: 'dates' })),
    );
    this.taken = taken.map((instant) => instant.toISOString());
  }

  override toBody(): RoomSlotsTakenBody {
    return {
      message: this.message,
      errors: (this.errors ?? []).map((error) => ({ message: error.message, field: 'dates' as const })),
      taken: this.taken,
    };
  }
}
