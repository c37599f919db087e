/**
 * The staff's half of the journey: the doctor writes the clinical record of the patient's
 * appointment, the kiosk registers a walk-in (a new person), the admin reads the access trail.
 */
import type { OnboardingAnswer } from '@crm/contracts';
import type { Booking } from './booking';
import { drivingRenewalMetadata } from './clinical-record';
import { eventually } from '@crm/testing';
import { type Answer, call, describe, expectStatus } from './http';
import { waitForMail } from './mailpit';
import { newPerson, type PatientAccount, runPrefix } from './people';
import { signInStaff, type StaffSession } from './staff';
import { type CheckResult, type ComposeTarget, type StaffName, step } from './target';

export const staffSignsIn = (
  t: ComposeTarget,
  results: CheckResult[],
  who: StaffName,
): Promise<StaffSession> =>
  step(results, `${who} signs in`, async () => {
    const session = await signInStaff(t, who);
    return { value: session, detail: `${session.rol}, second factor: ${session.secondFactor}` };
  });

export const doctorWritesRecord = (
  t: ComposeTarget,
  results: CheckResult[],
  doctor: StaffSession,
  patient: PatientAccount,
  booking: Booking,
): Promise<string> =>
  step(results, 'doctor writes the clinical record', async () => {
    const body = { userId: patient.id, dateId: booking.appointmentId, metadata: drivingRenewalMetadata() };
    const created = expectStatus(
      await call(t, 'POST', '/records', { token: doctor.token, body }),
      201,
      'record',
    );
    const id: string = created.body.id;
    const read = expectStatus(
      await call(t, 'GET', `/records/${id}`, { token: doctor.token }),
      200,
      'record read',
    );
    if (read.body.dateId !== booking.appointmentId)
      throw new Error('the record read back names another appointment');
    return { value: id, detail: `record ${id} for appointment ${booking.appointmentId}` };
  });

export interface WalkIn {
  id: string;
  email: string;
  /** Absent when the centre was closed: the kiosk books walk-ins only within opening hours. */
  appointmentId?: string;
}

/** A walk-in booking refused because the centre is closed now (hours, weekend, holiday, closure). */
const closedNow = (answer: Answer) =>
  answer.status === 400 && /cerrado|cierra/.test(String(answer.body?.message ?? ''));

export const kioskOnboardsWalkIn = (
  t: ComposeTarget,
  results: CheckResult[],
  kiosk: StaffSession,
): Promise<WalkIn> =>
  step(results, 'kiosk registers a walk-in', async () => {
    // "Es mi primera visita": name and phone, then the walk-in booking and the check-in.
    const person = newPerson(runPrefix('walkin'), 0, 'Javier Gómez Comprobación');
    const saved = await call(t, 'POST', '/users/onboarding', {
      token: kiosk.token,
      body: { email: person.email, name: person.name, phone: person.phone, operation: 'create' },
    });
    const { data, code } = expectStatus(saved, 201, 'onboarding').body as OnboardingAnswer;
    const walkIn: WalkIn = { id: data.id ?? data._id, email: person.email };
    const booked = await call(t, 'POST', '/dates/service', {
      token: kiosk.token,
      body: { date: new Date(Date.now() + 60_000).toISOString(), pacientId: walkIn.id, code },
    });
    let arrival: string;
    if (closedNow(booked)) {
      arrival = `no walk-in booked: ${booked.body.message}`;
    } else {
      expectStatus(booked, 201, 'walk-in booking');
      walkIn.appointmentId = booked.body.id;
      const checkIn = await call(t, 'POST', '/dates/checkin', {
        token: kiosk.token,
        body: { pacientId: walkIn.id, code: booked.body.bookingCode ?? code },
      });
      arrival = `walk-in ${walkIn.appointmentId} ${expectStatus(checkIn, 200, 'check-in').body.status}`;
    }
    const invitation = await waitForMail(t, person.email, 'Cree su contraseña');
    return { value: walkIn, detail: `${person.email}; ${arrival}; "${invitation.Subject}" e-mailed` };
  });

interface TrailEntry {
  actorId: string;
  action: string;
  patientId: string | null;
}

async function trail(t: ComposeTarget, token: string, query: string): Promise<TrailEntry[]> {
  const answer = await call(t, 'GET', `/audit?${query}&limit=100`, { token });
  if (answer.status !== 200) throw new Error(`access trail (${query}): ${describe(answer)}`);
  return answer.body.entries;
}

/** Waits until the trail shows `action` by `actorId` about the patient (entries travel as events). */
export const trailShows = (
  t: ComposeTarget,
  token: string,
  patientId: string,
  actorId: string,
  action: string,
) =>
  eventually(
    async () => {
      const entries = await trail(t, token, `patientId=${patientId}`);
      return entries.some((e) => e.action === action && e.actorId === actorId) ? entries.length : undefined;
    },
    30_000,
    `access trail entry ${action} about ${patientId}`,
  );

export const adminReadsTrail = (
  t: ComposeTarget,
  results: CheckResult[],
  admin: StaffSession,
  seen: { patientId: string; doctorId: string; walkInId: string; kioskId: string },
): Promise<void> =>
  step(results, 'admin reads the access trail', async () => {
    const aboutPatient = await trailShows(t, admin.token, seen.patientId, seen.doctorId, 'record.create');
    const aboutWalkIn = await trailShows(t, admin.token, seen.walkInId, seen.kioskId, 'user.create');
    const signIns = await trail(t, admin.token, `actorId=${seen.doctorId}&action=auth.signin`);
    if (signIns.length === 0) throw new Error("no sign-in of the doctor's in the trail");
    return {
      value: undefined,
      detail: `${aboutPatient} entries about the patient (record.create by the doctor), ${aboutWalkIn} about the walk-in (user.create by the kiosk), ${signIns.length} doctor sign-ins`,
    };
  });
