/**
 * The growth benchmark's data set: a centre's history built day by day backwards from the centre's
 * now (Atlantic/Canary), at GROWTH_SCALE of a five-year centre (60 000 patients, 90 000 appointments
 * on working days, 80 000 clinical records over three form versions, 1 500 000 access-trail
 * entries, 20 000 room reservations, 5 000 waiting-list entries, a year of reminders). It is cut in
 * three stages, the newest first (the last month with the weeks ahead, then back to a year, then to
 * five years), each seeded through the services' bulk seed modules.
 */
import { createHash } from 'node:crypto';
import moment from 'moment-timezone';
import { CENTRE_TIME_ZONE, slotMinutesOfDay, type AuditEntryData, type BookingChannel } from '@crm/contracts';
import {
  seedBookingCode,
  seedObjectId,
  type SeedAppointment,
  type SeedOutcome,
} from '../../services/appointments/src/data/appointment.seed-bulk';
import type { SeedRecord } from '../../services/records/src/data/record.seed-bulk';
import type { SeedAuditEntry } from '../../services/audit/src/data/audit.seed-bulk';
import type { SeedReservation } from '../../services/rooms/src/data/reservation.seed-bulk';

export const STAGES = ['month', 'year', 'five years'] as const;
export type Stage = (typeof STAGES)[number];
/** Days back each stage reaches (the month stage also has the weeks ahead). */
const REACH: Record<Stage, number> = { month: 30, year: 365, 'five years': 1826 };
const DAYS_AHEAD = 28;

const FIRST = [
  'María',
  'José',
  'Carmen',
  'Antonio',
  'Ana',
  'Manuel',
  'Lucía',
  'Álvaro',
  'Laura',
  'David',
  'Sofía',
  'Javier',
  'Marta',
  'Iván',
  'Nerea',
  'Aitor',
  'Begoña',
  'Óscar',
  'Paula',
  'Rubén',
];
const LAST = [
  'García',
  'Rodríguez',
  'González',
  'Fernández',
  'López',
  'Martínez',
  'Sánchez',
  'Pérez',
  'Gómez',
  'Martín',
  'Jiménez',
  'Ruiz',
  'Hernández',
  'Díaz',
  'Moreno',
  'Muñoz',
  'Álvarez',
  'Romero',
  'Alonso',
  'Gutiérrez',
  'Navarro',
  'Torres',
  'Domínguez',
  'Vázquez',
  'Ramos',
  'Gil',
  'Ramírez',
  'Serrano',
  'Blanco',
  'Suárez',
];
const CHANNELS: BookingChannel[] = ['patient', 'patient', 'staff', 'kiosk'];
export const DOCTORS = Array.from({ length: 6 }, (_, i) => ({
  id: seedObjectId(`doctor-${i}`),
  name: `Dra. ${FIRST[(i * 3) % FIRST.length]} ${LAST[(i * 7) % LAST.length]}`,
}));
export const ROOMS = ['consulta-1', 'consulta-2', 'consulta-3'];
const ACTIONS = [
  'appointment.read',
  'appointment.list',
  'record.read',
  'record.list',
  'patient.read',
  'appointment.update',
];

/** A form field as the records service stores it. */
export const field = (name: string, value: string) => ({ name, label: name, type: 'TEXT' as const, value });

/** A number in [0, 100) fixed by a name. */
const roll = (name: string) => createHash('md5').update(name).digest().readUInt32BE(0) % 100;

export interface Patient {
  index: number;
  id: string;
  name: string;
  email: string;
  phone: string;
}

export function patientOf(index: number): Patient {
  const name = `${FIRST[index % FIRST.length]} ${LAST[Math.floor(index / FIRST.length) % LAST.length]} ${LAST[Math.floor(index / (FIRST.length * LAST.length)) % LAST.length]}`;
  return {
    index,
    id: seedObjectId(`patient-${index}`),
    name,
    email: `paciente${index}@growth.test`,
    phone: `6${String(10_000_000 + index).padStart(8, '0')}`,
  };
}

export interface Plan {
  scale: number;
  now: Date;
  patients: number;
  /** Working days of the five years back (oldest first), as the centre's midnights. */
  days: moment.Moment[];
  perDay: number;
}

export function planOf(scale: number, now = new Date()): Plan {
  const today = moment.tz(now, CENTRE_TIME_ZONE).startOf('day');
  const days: moment.Moment[] = [];
  for (let back = REACH['five years']; back >= -DAYS_AHEAD; back--) {
    const day = today.clone().subtract(back, 'days');
    if (day.isoWeekday() <= 5) days.push(day);
  }
  const pastDays = days.filter((d) => d.isSameOrBefore(today)).length;
  return {
    scale,
    now,
    patients: Math.max(50, Math.round(60_000 * scale)),
    days,
    perDay: (90_000 * scale) / pastDays,
  };
}

const stageOf = (plan: Plan, day: moment.Moment): Stage => {
  const back = moment.tz(plan.now, CENTRE_TIME_ZONE).startOf('day').diff(day, 'days');
  return back <= REACH.month ? 'month' : back <= REACH.year ? 'year' : 'five years';
};

export interface StageData {
  appointments: SeedAppointment[];
  records: SeedRecord[];
  audit: SeedAuditEntry[];
  reservations: SeedReservation[];
  /** Future booked appointments (reminders) and the claimed sends of past ones. */
  reminders: Array<{
    appointmentId: string;
    date: Date;
    user: { id: string; name: string; email: string };
    dueAt: Date;
    claimedAt?: Date;
  }>;
  waitlist: Array<{ pacientId: string; day: string; joinedAt: Date }>;
  patientIndexes: Set<number>;
}

/** Everything of one stage (deterministic: the same plan gives the same documents). */
export function stageData(plan: Plan, stage: Stage): StageData {
  const out: StageData = {
    appointments: [],
    records: [],
    audit: [],
    reservations: [],
    reminders: [],
    waitlist: [],
    patientIndexes: new Set(),
  };
  const minutes = slotMinutesOfDay();
  const auditPerAppointment = 1_500_000 / 90_000;
  const reservationsPerDay = (20_000 * plan.scale) / plan.days.length;
  let j = 0; // appointment counter over the whole timeline, so ids do not depend on the stage
  let carry = 0;
  let reservationCarry = 0;
  let reservation = 0;
  for (const day of plan.days) {
    carry += plan.perDay;
    const count = Math.floor(carry);
    carry -= count;
    reservationCarry += reservationsPerDay;
    const reservations = Math.floor(reservationCarry);
    reservationCarry -= reservations;
    const inStage = stageOf(plan, day) === stage;
    const future = day.valueOf() + 86_400_000 > plan.now.getTime();
    for (let k = 0; k < count; k++, j++) {
      if (!inStage) continue;
      const slotMinute = minutes[k % minutes.length]!;
      const walkIn = !future && roll(`walkin-${j}`) < 5;
      const date = day
        .clone()
        .add(slotMinute, 'minutes')
        .add(walkIn ? 7 : 0, 'minutes')
        .toDate();
      const ahead = date > plan.now;
      if (ahead && (k >= minutes.length || future === false)) continue; // one booking per free grid slot
      // Past appointments: every 40th is the long-standing patient 0's; the others cycle.
      const index = !ahead && j % 40 === 0 ? 0 : j % plan.patients;
      if (ahead && index === 0) continue;
      const patient = patientOf(index);
      out.patientIndexes.add(index);
      const id = seedObjectId(`appointment-${j}`);
      const r = roll(`outcome-${j}`);
      let outcome: SeedOutcome = ahead ? 'booked' : r < 84 ? 'attended' : r < 90 ? 'noShow' : 'cancelled';
      const rescheduled = !ahead && r >= 96 && day.valueOf() + 10 * 86_400_000 < plan.now.getTime();
      if (walkIn) outcome = 'attended';
      const doctor = DOCTORS[j % DOCTORS.length]!;
      const channel = walkIn ? 'kiosk' : CHANNELS[j % CHANNELS.length]!;
      const bookedAt = new Date(date.getTime() - (walkIn ? 600_000 : (3 + (j % 20)) * 86_400_000));
      const base: SeedAppointment = {
        id,
        patient: { id: patient.id, name: patient.name, email: patient.email, phone: patient.phone },
        date,
        bookedAt,
        bookedBy: channel === 'staff' ? { id: doctor.id, rol: 'DOCTOR' } : { id: patient.id, rol: 'PACIENT' },
        channel,
        walkIn,
        outcome,
        bookingCode: seedBookingCode(1_000_000 + j),
        // Attended: checked in by the doctor, ended by the record they saved (nobody ends it by hand).
        ...(outcome === 'attended'
          ? { recordId: seedObjectId(`record-${j}`), checkedInBy: { id: doctor.id, rol: 'DOCTOR' as const } }
          : {}),
        ...(outcome === 'cancelled' ? { endedAt: new Date(date.getTime() - 2 * 86_400_000) } : {}),
      };
      if (rescheduled) {
        // Moved a week later (the new one attended): the old one cancelled naming it.
        const movedId = seedObjectId(`appointment-${j}-moved`);
        const movedDate = new Date(date.getTime() + 7 * 86_400_000);
        out.appointments.push({
          ...base,
          outcome: 'cancelled',
          rescheduledTo: movedId,
          endedAt: new Date(date.getTime() - 3 * 86_400_000),
          recordId: undefined,
          endedBy: base.bookedBy,
        });
        out.appointments.push({
          ...base,
          id: movedId,
          date: movedDate,
          bookingCode: seedBookingCode(5_000_000 + j),
          outcome: 'attended',
          rescheduledFrom: { id, date },
          recordId: undefined,
        });
      } else out.appointments.push(base);
      if (outcome === 'attended' && !rescheduled) {
        const back = moment.tz(plan.now, CENTRE_TIME_ZONE).diff(day, 'days');
        const configVersion = back > REACH.year ? 1 : back > 180 ? 2 : 3;
        out.records.push({
          id: base.recordId!,
          userId: patient.id,
          dateId: id,
          doctor,
          user: { name: patient.name },
          date: { date },
          metadata: {
            certificateType: field(
              'certificateType',
              j % 3 === 0 ? 'Licencia de armas' : 'Permiso de conducir',
            ),
            weight: field('weight', String(60 + (j % 40))),
            result: field('result', 'Apto'),
            ...(configVersion >= 2 ? { bloodPressure: field('bloodPressure', '120/80') } : {}),
            ...(configVersion >= 3 ? { visualAcuity: field('visualAcuity', 'OD 1,0 / OI 1,0') } : {}),
          },
          configVersion,
          view: 'doctor/appointments/:id',
          revision: j % 10 === 0 ? 2 : 1,
          updatedBy: { id: doctor.id },
          createdAt: new Date(date.getTime() + 20 * 60_000),
          updatedAt: new Date(date.getTime() + 25 * 60_000),
        });
      }
      // The access trail: about 17 entries per appointment, every 4 hours from three days before it.
      const entries =
        Math.floor(auditPerAppointment) + (roll(`audit-${j}`) < (auditPerAppointment % 1) * 100 ? 1 : 0);
      for (let n = 0; n < entries; n++) {
        // What is still ahead has not happened yet (all of them at "now" made today's trail hold
        // every future appointment's entries: 2 300 rows at scale 0.1, read by every trail page).
        const at = new Date(date.getTime() - 3 * 86_400_000 + n * 3_600_000 * 4);
        if (at >= plan.now) break;
        const data: AuditEntryData = {
          at: at.toISOString(),
          actorId: doctor.id,
          actorRol: 'DOCTOR',
          action: ACTIONS[n % ACTIONS.length]!,
          patientIds: [patient.id],
          resource: ACTIONS[n % ACTIONS.length]!.split('.')[0]!,
          resourceId: id,
          requestId: `growth-${j}-${n}`,
          clientAddress: '10.0.0.1',
          outcome: 'success',
        };
        out.audit.push({ eventId: `growth-${j}-${n}`, data, actorName: doctor.name });
      }
      if (ahead) {
        const dueAt = new Date(date.getTime() - 86_400_000);
        out.reminders.push({
          appointmentId: id,
          date,
          user: base.patient as { id: string; name: string; email: string },
          dueAt,
          ...(dueAt <= plan.now ? { claimedAt: dueAt } : {}),
        });
      } else if (date.getTime() > plan.now.getTime() - 365 * 86_400_000) {
        const claimedAt = new Date(date.getTime() - 86_400_000);
        out.reminders.push({
          appointmentId: id,
          date,
          user: base.patient as { id: string; name: string; email: string },
          dueAt: claimedAt,
          claimedAt,
        });
      }
    }
    for (let k = 0; k < reservations; k++, reservation++) {
      if (!inStage) continue;
      const doctor = DOCTORS[reservation % DOCTORS.length]!;
      const dates = [0, 1, 2].slice(0, 1 + (reservation % 3)).map((h) =>
        day
          .clone()
          .add(minutes[(reservation + h) % minutes.length]!, 'minutes')
          .toDate(),
      );
      const past = dates[0]! < plan.now;
      out.reservations.push({
        id: seedObjectId(`reservation-${reservation}`),
        room: ROOMS[reservation % ROOMS.length]!,
        doctor,
        dates,
        createdAt: new Date(dates[0]!.getTime() - 7 * 86_400_000),
        ...(past || reservation % 5 === 0 ? { releasedAt: new Date(dates[0]!.getTime() + 3_600_000) } : {}),
      });
    }
  }
  if (stage === 'month') {
    // Waiting lists for the weeks ahead: distinct patients per day.
    const ahead = plan.days.filter((day) => day.valueOf() > plan.now.getTime());
    const entries = Math.max(10, Math.round(5_000 * plan.scale));
    for (let n = 0; n < entries; n++) {
      const day = ahead[n % ahead.length]!;
      out.waitlist.push({
        pacientId: patientOf(1 + (n % (plan.patients - 1))).id,
        day: day.format('YYYY-MM-DD'),
        joinedAt: new Date(plan.now.getTime() - (n % 500) * 60_000),
      });
    }
  }
  return out;
}
