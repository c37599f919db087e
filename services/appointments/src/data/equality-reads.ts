import { inBatches } from '@crm/server-kit/service';
import type { AppointmentDocument, AppointmentModels } from './appointment.model';

/**
 * One equality query per value, merged, where `$in` would do on MongoDB: FerretDB 1.24 hands an
 * equality to PostgreSQL and its index but reads and filters every document of the collection
 * itself for `{$in: …}` (the calendar's kinds, a page's or a sweep's appointment ids: five years of
 * appointments decoded on every call). MongoDB answers each equality from the same index.
 */
export async function eachEquality<V, T>(
  values: readonly V[],
  find: (value: V) => PromiseLike<T[]>,
): Promise<T[]> {
  return (await inBatches([...new Set(values)], async (value) => find(value))).flat();
}

/** The documents of these appointments (every kind, or those `filter` also matches). */
export function documentsOfAppointments<T = AppointmentDocument>(
  models: AppointmentModels,
  ids: readonly string[],
  { filter = {}, select }: { filter?: Record<string, unknown>; select?: Record<string, 1> } = {},
): Promise<T[]> {
  return eachEquality(ids, (appointmentId) => {
    const query = models.Appointment.find({ ...filter, appointmentId });
    return (select ? query.select(select) : query).lean<T[]>();
  });
}
