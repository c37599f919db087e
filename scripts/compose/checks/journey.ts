/**
 * The product's main journey end to end, through the gateway and Mailpit only. Returns each step's
 * result and a snapshot of what it made, for `stillThere` after the product was taken down and up.
 */
import { patientBooksAndGetsTheEmail, patientSignsUpAndConfirms } from './journey-patient';
import {
  adminReadsTrail,
  doctorWritesRecord,
  kioskOnboardsWalkIn,
  staffSignsIn,
  type WalkIn,
} from './journey-staff';
import type { PatientAccount } from './people';
import type { CheckResult, ComposeTarget, StaffName } from './target';

/** What the journey left in the product (plain JSON: the orchestration may keep it in a file). */
export interface JourneySnapshot {
  patient: PatientAccount;
  appointmentId: string;
  slot: string;
  recordId: string;
  walkIn: WalkIn;
  staffIds: Record<StaffName, string>;
  /** The staff's authenticator secrets, when a second factor was enrolled (pass them back in the target). */
  totpSecrets?: ComposeTarget['totpSecrets'];
}

export interface JourneyOutcome {
  results: CheckResult[];
  snapshot: JourneySnapshot;
}

export async function productJourney(t: ComposeTarget): Promise<JourneyOutcome> {
  const results: CheckResult[] = [];
  const { patient, token } = await patientSignsUpAndConfirms(t, results);
  const booking = await patientBooksAndGetsTheEmail(t, results, patient, token);

  const doctor = await staffSignsIn(t, results, 'doctor');
  const recordId = await doctorWritesRecord(t, results, doctor, patient, booking);

  const kiosk = await staffSignsIn(t, results, 'kiosk');
  const walkIn = await kioskOnboardsWalkIn(t, results, kiosk);

  const admin = await staffSignsIn(t, results, 'admin');
  await adminReadsTrail(t, results, admin, {
    patientId: patient.id,
    doctorId: doctor.id,
    walkInId: walkIn.id,
    kioskId: kiosk.id,
  });

  return {
    results,
    snapshot: {
      patient,
      appointmentId: booking.appointmentId,
      slot: booking.slot,
      recordId,
      walkIn,
      staffIds: { admin: admin.id, doctor: doctor.id, kiosk: kiosk.id },
      ...(t.totpSecrets ? { totpSecrets: t.totpSecrets } : {}),
    },
  };
}
