/**
 * Patients racing for the same slots: for each slot, `contenders` patients send their booking at
 * the same moment. Exactly one of them gets it (201) and the others a 409; the day's agenda, read by
 * the doctor, then holds the slot once, for the winner. A transient answer (503 while a service is
 * overloaded or starting) is not a result of the race: that patient tries again, as the shell lets
 * them, and the retries are counted.
 */
import type { AgendaResponse } from '@crm/contracts';
import { call, callUntilAnswered, expectStatus, inParallel } from './http';
import { newPerson, registerPatient, runPrefix, signInPatient } from './people';
import { dayOf, freeSlots } from './slots';
import { signInStaff } from './staff';
import type { ComposeTarget } from './target';

export interface SlotRace {
  slot: string;
  winners: number;
  conflicts: number;
  /** Answers other than 201 and 409 (status: count). */
  other: Record<string, number>;
  /** Active appointments on the slot in the agenda afterwards. */
  inAgenda: number;
  /** The agenda's appointment on the slot is the winner's. */
  holderIsWinner: boolean;
}

export interface ContestOutcome {
  races: SlotRace[];
  ok: boolean;
  ms: number;
  /** Bookings sent again after a transient answer. */
  retried: number;
}

export async function contestedSlots(
  t: ComposeTarget,
  { slots = 3, contenders = 10 }: { slots?: number; contenders?: number } = {},
): Promise<ContestOutcome> {
  const doctor = await signInStaff(t, 'doctor');
  const prefix = runPrefix('race');
  const people = Array.from({ length: slots * contenders }, (_, i) => newPerson(prefix, i));
  const sessions = await inParallel(people, 5, async (person) => {
    const account = await registerPatient(t, doctor.token, person);
    return { id: account.id, token: (await signInPatient(t, account)).token };
  });
  const targets = await freeSlots(t, slots);

  const started = Date.now();
  let retried = 0;
  const answers = await Promise.all(
    sessions.map(async ({ id, token }, i) => {
      const slot = targets[Math.floor(i / contenders)]!;
      let tries = 0;
      const answer = await callUntilAnswered(async () => {
        tries += 1;
        return call(t, 'POST', '/dates', { token, body: { date: slot } });
      });
      if (tries > 1) retried += 1;
      return { slot, status: answer.status, pacientId: id };
    }),
  );
  const ms = Date.now() - started;

  const races: SlotRace[] = [];
  for (const slot of targets) {
    const mine = answers.filter((a) => a.slot === slot);
    const other: Record<string, number> = {};
    for (const { status } of mine)
      if (status !== 201 && status !== 409) other[status] = (other[status] ?? 0) + 1;
    const agenda = expectStatus(
      await call(t, 'GET', `/dates/agenda?date=${dayOf(slot)}`, { token: doctor.token }),
      200,
      'agenda',
    ).body as AgendaResponse;
    const held = agenda.appointments.filter(
      (a) => Date.parse(a.date) === Date.parse(slot) && (a.status === 'booked' || a.status === 'checkedIn'),
    );
    const winners = mine.filter((a) => a.status === 201);
    races.push({
      slot,
      winners: winners.length,
      conflicts: mine.filter((a) => a.status === 409).length,
      other,
      inAgenda: held.length,
      holderIsWinner:
        held.length === 1 && winners.length === 1 && held[0]!.pacientId === winners[0]!.pacientId,
    });
  }
  const ok = races.every((r) => r.winners === 1 && r.conflicts === contenders - 1 && r.holderIsWinner);
  for (const r of races)
    console.log(
      `contestedSlots: ${r.slot} → ${r.winners} winner, ${r.conflicts} × 409, other ${JSON.stringify(r.other)}, ${r.inAgenda} in the agenda${r.holderIsWinner ? ' (the winner)' : ''}`,
    );
  console.log(
    `contestedSlots: ${ok ? 'exactly one winner per slot' : 'FAILED'} (${ms} ms for ${answers.length} bookings, ${retried} retried)`,
  );
  if (!ok) throw new Error(`contested slots: not exactly one winner per slot: ${JSON.stringify(races)}`);
  return { races, ok, ms, retried };
}
