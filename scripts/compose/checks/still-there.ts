/**
 * After the product was taken down and brought up again (`down` without `-v`, then `up`): the
 * accounts, appointment, clinical record, walk-in and trail the journey made are all still there,
 * and so is every booking of the patients given.
 */
import type { AppointmentView } from '@crm/contracts';
import { verifyBookings } from './book-many';
import { call, callUntilAnswered, expectStatus } from './http';
import type { JourneySnapshot } from './journey';
import { trailShows, staffSignsIn } from './journey-staff';
import { type PatientAccount, signInPatient } from './people';
import { type CheckResult, type ComposeTarget, step } from './target';

export async function stillThere(
  t: ComposeTarget,
  snapshot: JourneySnapshot,
  bookedPatients: ReadonlyArray<PatientAccount & { appointmentId?: string }> = [],
): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  t.totpSecrets = { ...snapshot.totpSecrets, ...t.totpSecrets };
  const { patient } = snapshot;

  await step(results, 'patient and appointment still there', async () => {
    const session = await signInPatient(t, patient);
    if (!session.confirmed) throw new Error('the patient is unconfirmed again');
    const answer = await callUntilAnswered(() =>
      call(t, 'GET', `/dates/history/userid/${patient.id}`, { token: session.token }),
    );
    const history = expectStatus(answer, 200, 'appointments').body.appointments as AppointmentView[];
    const appointment = history.find((a) => a.id === snapshot.appointmentId);
    if (!appointment) throw new Error(`appointment ${snapshot.appointmentId} is gone`);
    return {
      value: undefined,
      detail: `${patient.email} signs in; appointment ${appointment.id} ${appointment.status}`,
    };
  });

  const doctor = await staffSignsIn(t, results, 'doctor');
  await step(results, 'clinical record and walk-in still there', async () => {
    const record = await callUntilAnswered(() =>
      call(t, 'GET', `/records/${snapshot.recordId}`, { token: doctor.token }),
    );
    if (expectStatus(record, 200, 'record').body.dateId !== snapshot.appointmentId)
      throw new Error('the record names another appointment');
    const walkIn = await callUntilAnswered(() =>
      call(t, 'GET', `/users/${snapshot.walkIn.id}`, { token: doctor.token }),
    );
    if (expectStatus(walkIn, 200, 'walk-in patient').body.data?.email !== snapshot.walkIn.email)
      throw new Error('the walk-in patient has another address');
    return { value: undefined, detail: `record ${snapshot.recordId}, walk-in ${snapshot.walkIn.email}` };
  });

  const admin = await staffSignsIn(t, results, 'admin');
  await step(results, 'access trail still there', async () => {
    const entries = await trailShows(t, admin.token, patient.id, snapshot.staffIds.doctor, 'record.create');
    return { value: undefined, detail: `${entries} entries about the patient, record.create among them` };
  });

  if (bookedPatients.length > 0)
    await step(results, 'bookings still there', async () => {
      const counts = await verifyBookings(t, bookedPatients);
      if (counts.lost + counts.doubled + counts.mismatched > 0)
        throw new Error(`lost ${counts.lost}, doubled ${counts.doubled}, mismatched ${counts.mismatched}`);
      return {
        value: counts,
        detail: `${counts.exactlyOne}/${counts.patients} patients with exactly their one appointment`,
      };
    });
  return results;
}
