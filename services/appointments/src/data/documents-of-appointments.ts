import type { AppointmentDocument, AppointmentModels } from './appointment.model';

/** Look-ups in flight at once (the connection pool has 20). */
const IN_FLIGHT = 8;

/**
 * The documents of these appointments (every kind, or those `filter` also matches), one equality
 * query per appointment id. FerretDB 1.24 hands `appointmentId: <id>` to PostgreSQL and its index
 * but reads and filters every document of the collection itself for `appointmentId: {$in: ids}`:
 * each sweep pass and each list page that looked up its appointments' other documents that way
 * decoded the centre's whole history. MongoDB answers each equality from the same index.
 */
export async function documentsOfAppointments<T = AppointmentDocument>(
  models: AppointmentModels,
  ids: readonly string[],
  { filter = {}, select }: { filter?: Record<string, unknown>; select?: Record<string, 1> } = {},
): Promise<T[]> {
  const unique = [...new Set(ids)];
  const found: T[] = [];
  for (let i = 0; i < unique.length; i += IN_FLIGHT) {
    const batch = await Promise.all(
      unique.slice(i, i + IN_FLIGHT).map((appointmentId) => {
        const query = models.Appointment.find({ ...filter, appointmentId });
        return (select ? query.select(select) : query).lean<T[]>();
      }),
    );
    for (const docs of batch) found.push(...docs);
  }
  return found;
}
